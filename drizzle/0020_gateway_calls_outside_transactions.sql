ALTER TABLE "refunds" ALTER COLUMN "provider_ref" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "charging_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "provider_cancel" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "status" text DEFAULT 'done' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "charge_ref" text;--> statement-breakpoint
CREATE INDEX "invoices_charging_since_index" ON "invoices" USING btree ("charging_since") WHERE "invoices"."charging_since" is not null;--> statement-breakpoint
CREATE INDEX "memberships_updated_at_index" ON "memberships" USING btree ("updated_at") WHERE "memberships"."provider_cancel" is not null;--> statement-breakpoint
CREATE INDEX "refunds_created_at_index" ON "refunds" USING btree ("created_at") WHERE "refunds"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_provider_cancel_known" CHECK ("memberships"."provider_cancel" in ('now', 'period-end', 'notice'));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_status_known" CHECK ("refunds"."status" in ('pending', 'done'));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_done_has_provider_ref" CHECK ("refunds"."status" = 'pending' or "refunds"."provider_ref" is not null);