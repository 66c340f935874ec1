ALTER TABLE "memberships" ADD COLUMN "consent_wording" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "consented_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "checkout_key" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_checkoutKey_unique" UNIQUE("checkout_key");