DROP INDEX "customers_created_at_index";--> statement-breakpoint
DROP INDEX "orders_created_at_index";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "email" text;--> statement-breakpoint
-- Customers booked before this column existed carry their address on the "Email: " line of their notes.
UPDATE "customers" SET "email" = lower(substring("notes" from '(?:^|\n)Email: ([^\n]+)')) WHERE "notes" IS NOT NULL;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "customers_created_at_id_index" ON "customers" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "customers_company_name_trgm_index" ON "customers" USING gin (lower("company_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_email_trgm_index" ON "customers" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "orders_created_at_id_index" ON "orders" USING btree ("created_at","id");