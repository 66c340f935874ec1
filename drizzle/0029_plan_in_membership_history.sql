-- Each entry of a membership's history names the plan it left the membership on, and the plan before
-- when it changed it (ADR 030): the statistics count trials, conversions and plan changes per plan.
-- Earlier entries take the membership's plan: plans could not change before this release.
ALTER TABLE "membership_events" ADD COLUMN "plan" text;--> statement-breakpoint
UPDATE "membership_events" SET "plan" = "memberships"."plan" FROM "memberships" WHERE "memberships"."id" = "membership_events"."membership_id";--> statement-breakpoint
ALTER TABLE "membership_events" ALTER COLUMN "plan" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "membership_events" ADD COLUMN "from_plan" text;--> statement-breakpoint
CREATE INDEX "membership_events_plan_changes_idx" ON "membership_events" USING btree ("created_at") WHERE "membership_events"."from_plan" is not null;--> statement-breakpoint
ALTER TABLE "membership_events" ADD CONSTRAINT "membership_events_plan_changed" CHECK ("membership_events"."from_plan" is null or "membership_events"."from_plan" <> "membership_events"."plan");
