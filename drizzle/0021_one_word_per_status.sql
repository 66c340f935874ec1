-- One word per status (docs/glossary.md): orders 'Not Paid' -> 'not_paid' (the pages still show
-- "NOT PAID"), memberships 'canceled' -> 'cancelled'. The statement triggers move the dashboard and
-- statistics figures with the rows; the figures left under the old words then sum to zero and go.
ALTER TABLE "memberships" DROP CONSTRAINT "memberships_status_known";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_known";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "status" SET DEFAULT 'not_paid';--> statement-breakpoint
UPDATE "orders" SET "status" = 'not_paid' WHERE "status" = 'Not Paid';--> statement-breakpoint
UPDATE "order_events" SET "from_status" = 'not_paid' WHERE "from_status" = 'Not Paid';--> statement-breakpoint
UPDATE "order_events" SET "to_status" = 'not_paid' WHERE "to_status" = 'Not Paid';--> statement-breakpoint
DELETE FROM "order_totals" WHERE "status" = 'Not Paid';--> statement-breakpoint
DELETE FROM "order_days" WHERE "status" = 'Not Paid';--> statement-breakpoint
UPDATE "memberships" SET "status" = 'cancelled' WHERE "status" = 'canceled';--> statement-breakpoint
UPDATE "membership_events" SET "from_status" = 'cancelled' WHERE "from_status" = 'canceled';--> statement-breakpoint
UPDATE "membership_events" SET "to_status" = 'cancelled' WHERE "to_status" = 'canceled';--> statement-breakpoint
DELETE FROM "membership_totals" WHERE "status" = 'canceled';--> statement-breakpoint
DELETE FROM "membership_days" WHERE 'canceled' IN ("from_status", "to_status");--> statement-breakpoint
UPDATE "job_runs" SET "counts" = ("counts" - 'canceledAtPeriodEnd') || jsonb_build_object('cancelledAtPeriodEnd', "counts" -> 'canceledAtPeriodEnd')
  WHERE "counts" ? 'canceledAtPeriodEnd';--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_status_known" CHECK ("memberships"."status" in ('trialing', 'active', 'past_due', 'cancelled', 'ended'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_known" CHECK ("orders"."status" in ('not_paid', 'paid', 'completed', 'cancelled', 'refunded'));
