-- One customer per person (ADR 027): until now every booking made a customer of its own. The
-- customers of one address become its oldest one, which takes the newest booking's name, notes and
-- account; the orders and memberships of the others move to it (their ids, and so their history,
-- unchanged) and the others are deleted, which the customer totals' trigger counts.
UPDATE "customers" SET "email" = lower(btrim("email")) WHERE "email" <> lower(btrim("email"));
--> statement-breakpoint
CREATE TEMPORARY TABLE "customer_merges" AS
  SELECT "id", "keeper" FROM (
    SELECT "id", first_value("id") OVER (PARTITION BY "email" ORDER BY "created_at", "id") AS "keeper"
    FROM "customers" WHERE "email" IS NOT NULL
  ) AS "grouped"
  WHERE "id" <> "keeper";
--> statement-breakpoint
UPDATE "customers" AS "keeper" SET
  "full_name" = "newest"."full_name",
  "notes" = "newest"."notes",
  "user_id" = coalesce("newest"."user_id", (
    SELECT "user_id" FROM "customers" AS "other"
    WHERE "other"."email" = "keeper"."email" AND "other"."user_id" IS NOT NULL
    ORDER BY "other"."created_at" DESC, "other"."id" DESC LIMIT 1
  ))
FROM (
  SELECT DISTINCT ON ("email") "email", "full_name", "notes", "user_id"
  FROM "customers" WHERE "email" IS NOT NULL ORDER BY "email", "created_at" DESC, "id" DESC
) AS "newest"
WHERE "keeper"."id" IN (SELECT "keeper" FROM "customer_merges") AND "newest"."email" = "keeper"."email";
--> statement-breakpoint
UPDATE "orders" SET "customer_id" = "customer_merges"."keeper"
FROM "customer_merges" WHERE "orders"."customer_id" = "customer_merges"."id";
--> statement-breakpoint
UPDATE "memberships" SET "customer_id" = "customer_merges"."keeper"
FROM "customer_merges" WHERE "memberships"."customer_id" = "customer_merges"."id";
--> statement-breakpoint
DELETE FROM "customers" WHERE "id" IN (SELECT "id" FROM "customer_merges");
--> statement-breakpoint
DROP TABLE "customer_merges";
--> statement-breakpoint
CREATE UNIQUE INDEX "customers_email_unique" ON "customers" USING btree ("email");--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_email_lower_case" CHECK ("customers"."email" = lower("customers"."email"));
