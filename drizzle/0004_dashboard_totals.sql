CREATE TABLE "customer_totals" (
	"slot" smallint PRIMARY KEY NOT NULL,
	"customers" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_totals" (
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"slot" smallint NOT NULL,
	"orders" bigint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "order_totals_status_currency_slot_pk" PRIMARY KEY("status","currency","slot")
);
--> statement-breakpoint
-- The totals below are kept by the database itself (ADR 011), whatever writes orders or customers.
-- Concurrent bookings add to different slots, so that they rarely wait on one row. Deletions
-- (retention, erasure) remove orders and then customers, the reverse of a booking's order: they
-- get a slot of their own, so that a deletion and a booking can never wait on each other in a cycle.
CREATE FUNCTION "totals_slot"(operation text) RETURNS smallint LANGUAGE sql STABLE AS $$
  SELECT (CASE WHEN operation = 'DELETE' THEN 8 ELSE pg_backend_pid() % 8 END)::smallint
$$;
--> statement-breakpoint
CREATE FUNCTION "add_to_order_totals"(changes "order_totals"[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "order_totals" AS total ("status", "currency", "slot", "orders", "amount")
  SELECT "status", "currency", "slot", sum("orders"), sum("amount")
  FROM unnest(changes)
  GROUP BY "status", "currency", "slot"
  HAVING sum("orders") <> 0 OR sum("amount") <> 0
  -- Every statement locks the rows it adds to in this one order, so two cannot deadlock on them.
  ORDER BY "status", "currency", "slot"
  ON CONFLICT ("status", "currency", "slot") DO UPDATE
    SET "orders" = total."orders" + excluded."orders", "amount" = total."amount" + excluded."amount"
$$;
--> statement-breakpoint
CREATE FUNCTION "order_totals_track"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  writer_slot smallint := totals_slot(TG_OP);
  changes "order_totals"[] := '{}';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "order_totals";
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    changes := array(SELECT row("status", "currency", writer_slot, 1, "amount")::"order_totals" FROM new_orders);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    changes := changes || array(SELECT row("status", "currency", writer_slot, -1, -"amount")::"order_totals" FROM old_orders);
  END IF;
  PERFORM add_to_order_totals(changes);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "customer_totals_track"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "customer_totals";
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO delta FROM new_customers;
  ELSE
    SELECT -count(*) INTO delta FROM old_customers;
  END IF;
  IF delta <> 0 THEN
    INSERT INTO "customer_totals" AS total ("slot", "customers") VALUES (totals_slot(TG_OP), delta)
    ON CONFLICT ("slot") DO UPDATE SET "customers" = total."customers" + excluded."customers";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "order_totals_after_insert" AFTER INSERT ON "orders"
  REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION "order_totals_track"();
--> statement-breakpoint
-- PostgreSQL takes no column list (UPDATE OF "status", ...) with transition tables: every update
-- fires it, and the changes that add up to nothing (another column changed) write nothing.
CREATE TRIGGER "order_totals_after_update" AFTER UPDATE ON "orders"
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION "order_totals_track"();
--> statement-breakpoint
CREATE TRIGGER "order_totals_after_delete" AFTER DELETE ON "orders"
  REFERENCING OLD TABLE AS old_orders FOR EACH STATEMENT EXECUTE FUNCTION "order_totals_track"();
--> statement-breakpoint
CREATE TRIGGER "order_totals_after_truncate" AFTER TRUNCATE ON "orders"
  FOR EACH STATEMENT EXECUTE FUNCTION "order_totals_track"();
--> statement-breakpoint
CREATE TRIGGER "customer_totals_after_insert" AFTER INSERT ON "customers"
  REFERENCING NEW TABLE AS new_customers FOR EACH STATEMENT EXECUTE FUNCTION "customer_totals_track"();
--> statement-breakpoint
CREATE TRIGGER "customer_totals_after_delete" AFTER DELETE ON "customers"
  REFERENCING OLD TABLE AS old_customers FOR EACH STATEMENT EXECUTE FUNCTION "customer_totals_track"();
--> statement-breakpoint
CREATE TRIGGER "customer_totals_after_truncate" AFTER TRUNCATE ON "customers"
  FOR EACH STATEMENT EXECUTE FUNCTION "customer_totals_track"();
--> statement-breakpoint
-- Creating the triggers locked both tables against writes until the migration commits, so no
-- order or customer can slip between these counts and the triggers.
INSERT INTO "order_totals" ("status", "currency", "slot", "orders", "amount")
SELECT "status", "currency", 0, count(*), sum("amount") FROM "orders" GROUP BY "status", "currency";
--> statement-breakpoint
INSERT INTO "customer_totals" ("slot", "customers") SELECT 0, count(*) FROM "customers" HAVING count(*) > 0;
