CREATE TABLE "revenue_days" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"currency" text NOT NULL,
	"slot" smallint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "revenue_days_day_kind_currency_slot_pk" PRIMARY KEY("day","kind","currency","slot")
);
--> statement-breakpoint
CREATE TABLE "revenue_totals" (
	"kind" text NOT NULL,
	"currency" text NOT NULL,
	"slot" smallint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "revenue_totals_kind_currency_slot_pk" PRIMARY KEY("kind","currency","slot")
);
--> statement-breakpoint
-- Fees and refunds are kept like the orders' and memberships' figures (ADR 011, 012, 017, 031): by
-- statement-level triggers whatever writes them, in the same slots (deletions in their own), upserted
-- in key order by PL/pgSQL. A fee counts once charged: its invoice 'paid', or 'refunded', which was
-- paid first (the refund is counted as a refund). A refund counts once made ('done'), on the day it was
-- asked for. Amounts stay positive; net is computed by the reader, per currency.
CREATE FUNCTION "add_to_revenue"(changes "revenue_days"[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Most updates of invoices (the billing job's attempts) change no money: nothing to write.
  IF cardinality(changes) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO "revenue_totals" AS total ("kind", "currency", "slot", "amount")
  SELECT "kind", "currency", "slot", sum("amount")
  FROM unnest(changes)
  GROUP BY "kind", "currency", "slot"
  HAVING sum("amount") <> 0
  -- Every statement locks the rows it adds to in this one order, so two cannot deadlock on them.
  ORDER BY "kind", "currency", "slot"
  ON CONFLICT ("kind", "currency", "slot") DO UPDATE SET "amount" = total."amount" + excluded."amount";
  INSERT INTO "revenue_days" AS total ("day", "kind", "currency", "slot", "amount")
  SELECT "day", "kind", "currency", "slot", sum("amount")
  FROM unnest(changes)
  GROUP BY "day", "kind", "currency", "slot"
  HAVING sum("amount") <> 0
  ORDER BY "day", "kind", "currency", "slot"
  ON CONFLICT ("day", "kind", "currency", "slot") DO UPDATE SET "amount" = total."amount" + excluded."amount";
END
$$;
--> statement-breakpoint
-- A fee's day is the Amsterdam day it was paid, where the back office counts days.
CREATE FUNCTION "invoices_revenue_track"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  writer_slot smallint := totals_slot(TG_OP);
  changes "revenue_days"[] := '{}';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "revenue_totals" WHERE "kind" = 'fee';
    DELETE FROM "revenue_days" WHERE "kind" = 'fee';
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    changes := array(
      SELECT row((coalesce("paid_at", "created_at") AT TIME ZONE 'Europe/Amsterdam')::date, 'fee', "currency",
                 writer_slot, "amount")::"revenue_days"
      FROM new_invoices WHERE "status" IN ('paid', 'refunded'));
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    changes := changes || array(
      SELECT row((coalesce("paid_at", "created_at") AT TIME ZONE 'Europe/Amsterdam')::date, 'fee', "currency",
                 writer_slot, -"amount")::"revenue_days"
      FROM old_invoices WHERE "status" IN ('paid', 'refunded'));
  END IF;
  PERFORM add_to_revenue(changes);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "refunds_revenue_track"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  writer_slot smallint := totals_slot(TG_OP);
  changes "revenue_days"[] := '{}';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "revenue_totals" WHERE "kind" IN ('order_refund', 'fee_refund');
    DELETE FROM "revenue_days" WHERE "kind" IN ('order_refund', 'fee_refund');
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    changes := array(
      SELECT row(("created_at" AT TIME ZONE 'Europe/Amsterdam')::date,
                 CASE WHEN "order_id" IS NULL THEN 'fee_refund' ELSE 'order_refund' END, "currency",
                 writer_slot, "amount")::"revenue_days"
      FROM new_refunds WHERE "status" = 'done');
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    changes := changes || array(
      SELECT row(("created_at" AT TIME ZONE 'Europe/Amsterdam')::date,
                 CASE WHEN "order_id" IS NULL THEN 'fee_refund' ELSE 'order_refund' END, "currency",
                 writer_slot, -"amount")::"revenue_days"
      FROM old_refunds WHERE "status" = 'done');
  END IF;
  PERFORM add_to_revenue(changes);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "revenue_after_insert" AFTER INSERT ON "invoices"
  REFERENCING NEW TABLE AS new_invoices FOR EACH STATEMENT EXECUTE FUNCTION "invoices_revenue_track"();
--> statement-breakpoint
-- Every update fires it (no column list with transition tables): the billing job's attempts add up
-- to nothing and write nothing.
CREATE TRIGGER "revenue_after_update" AFTER UPDATE ON "invoices"
  REFERENCING OLD TABLE AS old_invoices NEW TABLE AS new_invoices FOR EACH STATEMENT EXECUTE FUNCTION "invoices_revenue_track"();
--> statement-breakpoint
CREATE TRIGGER "revenue_after_delete" AFTER DELETE ON "invoices"
  REFERENCING OLD TABLE AS old_invoices FOR EACH STATEMENT EXECUTE FUNCTION "invoices_revenue_track"();
--> statement-breakpoint
CREATE TRIGGER "revenue_after_truncate" AFTER TRUNCATE ON "invoices"
  FOR EACH STATEMENT EXECUTE FUNCTION "invoices_revenue_track"();
--> statement-breakpoint
CREATE TRIGGER "revenue_after_insert" AFTER INSERT ON "refunds"
  REFERENCING NEW TABLE AS new_refunds FOR EACH STATEMENT EXECUTE FUNCTION "refunds_revenue_track"();
--> statement-breakpoint
CREATE TRIGGER "revenue_after_update" AFTER UPDATE ON "refunds"
  REFERENCING OLD TABLE AS old_refunds NEW TABLE AS new_refunds FOR EACH STATEMENT EXECUTE FUNCTION "refunds_revenue_track"();
--> statement-breakpoint
CREATE TRIGGER "revenue_after_delete" AFTER DELETE ON "refunds"
  REFERENCING OLD TABLE AS old_refunds FOR EACH STATEMENT EXECUTE FUNCTION "refunds_revenue_track"();
--> statement-breakpoint
CREATE TRIGGER "revenue_after_truncate" AFTER TRUNCATE ON "refunds"
  FOR EACH STATEMENT EXECUTE FUNCTION "refunds_revenue_track"();
--> statement-breakpoint
-- Creating the triggers locked the invoices and refunds against writes until the migration commits,
-- so none can slip between these sums and the triggers.
INSERT INTO "revenue_days" ("day", "kind", "currency", "slot", "amount")
SELECT "day", "kind", "currency", 0, sum("amount")
FROM (
  SELECT (coalesce("paid_at", "created_at") AT TIME ZONE 'Europe/Amsterdam')::date AS "day", 'fee' AS "kind",
         "currency", "amount"
  FROM "invoices" WHERE "status" IN ('paid', 'refunded')
  UNION ALL
  SELECT ("created_at" AT TIME ZONE 'Europe/Amsterdam')::date,
         CASE WHEN "order_id" IS NULL THEN 'fee_refund' ELSE 'order_refund' END, "currency", "amount"
  FROM "refunds" WHERE "status" = 'done'
) AS "entries"
GROUP BY "day", "kind", "currency";
--> statement-breakpoint
INSERT INTO "revenue_totals" ("kind", "currency", "slot", "amount")
SELECT "kind", "currency", 0, sum("amount") FROM "revenue_days" GROUP BY "kind", "currency";
