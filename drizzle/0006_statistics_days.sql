CREATE TABLE "order_days" (
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"airport" text,
	"slot" smallint NOT NULL,
	"orders" bigint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "order_days_day_currency_status_airport_slot_unique" UNIQUE NULLS NOT DISTINCT("day","currency","status","airport","slot")
);
--> statement-breakpoint
-- The daily figures are kept like the dashboard's totals (ADR 011, ADR 012), by statement-level
-- triggers whatever writes the orders, in the same slots. A day is the order's creation day in
-- Amsterdam, where the back office counts days (TIME_ZONE in app/features/admin/format.ts).
CREATE FUNCTION "add_to_order_days"(changes "order_days"[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "order_days" AS total ("day", "currency", "status", "airport", "slot", "orders", "amount")
  SELECT "day", "currency", "status", "airport", "slot", sum("orders"), sum("amount")
  FROM unnest(changes)
  GROUP BY "day", "currency", "status", "airport", "slot"
  HAVING sum("orders") <> 0 OR sum("amount") <> 0
  -- Every statement locks the rows it adds to in this one order, so two cannot deadlock on them.
  ORDER BY "day", "currency", "status", "airport", "slot"
  ON CONFLICT ("day", "currency", "status", "airport", "slot") DO UPDATE
    SET "orders" = total."orders" + excluded."orders", "amount" = total."amount" + excluded."amount"
$$;
--> statement-breakpoint
CREATE FUNCTION "order_days_track"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  writer_slot smallint := totals_slot(TG_OP);
  changes "order_days"[] := '{}';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "order_days";
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    changes := array(
      SELECT row(("created_at" AT TIME ZONE 'Europe/Amsterdam')::date, "currency", "status", "airport", writer_slot, 1, "amount")::"order_days"
      FROM new_orders);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    changes := changes || array(
      SELECT row(("created_at" AT TIME ZONE 'Europe/Amsterdam')::date, "currency", "status", "airport", writer_slot, -1, -"amount")::"order_days"
      FROM old_orders);
  END IF;
  PERFORM add_to_order_days(changes);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "order_days_after_insert" AFTER INSERT ON "orders"
  REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION "order_days_track"();
--> statement-breakpoint
CREATE TRIGGER "order_days_after_update" AFTER UPDATE ON "orders"
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION "order_days_track"();
--> statement-breakpoint
CREATE TRIGGER "order_days_after_delete" AFTER DELETE ON "orders"
  REFERENCING OLD TABLE AS old_orders FOR EACH STATEMENT EXECUTE FUNCTION "order_days_track"();
--> statement-breakpoint
CREATE TRIGGER "order_days_after_truncate" AFTER TRUNCATE ON "orders"
  FOR EACH STATEMENT EXECUTE FUNCTION "order_days_track"();
--> statement-breakpoint
-- Creating the triggers locked the orders against writes until the migration commits, so none can
-- slip between this count and the triggers.
INSERT INTO "order_days" ("day", "currency", "status", "airport", "slot", "orders", "amount")
SELECT ("created_at" AT TIME ZONE 'Europe/Amsterdam')::date, "currency", "status", "airport", 0, count(*), sum("amount")
FROM "orders" GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
-- The statistics read the daily figures now; this index (migration 0005) only cost every booking a write.
DROP INDEX "orders_created_at_statistics_index";
