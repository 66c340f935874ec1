-- Every membership so far was billed from its trial's end: that is its anchor (ADR 016).
ALTER TABLE "memberships" ADD COLUMN "billing_anchor" timestamp with time zone;--> statement-breakpoint
UPDATE "memberships" SET "billing_anchor" = "trial_ends_at";--> statement-breakpoint
ALTER TABLE "memberships" ALTER COLUMN "billing_anchor" SET NOT NULL;
