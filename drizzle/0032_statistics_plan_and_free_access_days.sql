-- The statistics' plan figures (ADR 030) come from the daily figures (ADR 012, 017) instead of the
-- period's history and bookings: `membership_days` counts the history's entries per plan and plan
-- before too, `order_days` the free accesses members' bookings spent. Writers of the orders and the
-- history wait from here until the commit, so none slips between the triggers' new functions and the
-- backfill below; they are locked first, as a writer locks them before the daily figures.
LOCK TABLE "orders", "membership_events" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
ALTER TABLE "order_days" ADD COLUMN "free_accesses" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The daily membership figures are counted again below, with their plans.
DELETE FROM "membership_days";--> statement-breakpoint
ALTER TABLE "membership_days" DROP CONSTRAINT "membership_days_day_fromStatus_toStatus_slot_unique";--> statement-breakpoint
ALTER TABLE "membership_days" ADD COLUMN "plan" text NOT NULL;--> statement-breakpoint
ALTER TABLE "membership_days" ADD COLUMN "from_plan" text;--> statement-breakpoint
ALTER TABLE "membership_days" ADD CONSTRAINT "membership_days_day_fromStatus_toStatus_plan_fromPlan_slot_unique" UNIQUE NULLS NOT DISTINCT("day","from_status","to_status","plan","from_plan","slot");--> statement-breakpoint
-- The statistics counted plan changes from the history through this index; nothing reads it now.
DROP INDEX "membership_events_plan_changes_idx";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "add_to_order_days"(changes "order_days"[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "order_days" AS total ("day", "currency", "status", "airport", "slot", "orders", "amount", "free_accesses")
  SELECT "day", "currency", "status", "airport", "slot", sum("orders"), sum("amount"), sum("free_accesses")
  FROM unnest(changes)
  GROUP BY "day", "currency", "status", "airport", "slot"
  HAVING sum("orders") <> 0 OR sum("amount") <> 0 OR sum("free_accesses") <> 0
  -- Every statement locks the rows it adds to in this one order, so two cannot deadlock on them.
  ORDER BY "day", "currency", "status", "airport", "slot"
  ON CONFLICT ("day", "currency", "status", "airport", "slot") DO UPDATE
    SET "orders" = total."orders" + excluded."orders", "amount" = total."amount" + excluded."amount",
        "free_accesses" = total."free_accesses" + excluded."free_accesses";
END
$$;
--> statement-breakpoint
-- An order's free accesses count while it names the membership whose allowance it spent: the
-- membership's deletion sets that to null, an update these triggers see.
CREATE FUNCTION "order_free_accesses"(allowance_membership_id uuid, free_accesses integer) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN allowance_membership_id IS NULL THEN 0 ELSE free_accesses END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "order_days_track"() RETURNS trigger LANGUAGE plpgsql AS $$
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
      SELECT row(("created_at" AT TIME ZONE 'Europe/Amsterdam')::date, "currency", "status", "airport", writer_slot, 1, "amount",
                 order_free_accesses("allowance_membership_id", "free_accesses"))::"order_days"
      FROM new_orders);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    changes := changes || array(
      SELECT row(("created_at" AT TIME ZONE 'Europe/Amsterdam')::date, "currency", "status", "airport", writer_slot, -1, -"amount",
                 -order_free_accesses("allowance_membership_id", "free_accesses"))::"order_days"
      FROM old_orders);
  END IF;
  PERFORM add_to_order_days(changes);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "add_to_membership_days"(changes "membership_days"[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "membership_days" AS total ("day", "from_status", "to_status", "plan", "from_plan", "slot", "events")
  SELECT "day", "from_status", "to_status", "plan", "from_plan", "slot", sum("events")
  FROM unnest(changes)
  GROUP BY "day", "from_status", "to_status", "plan", "from_plan", "slot"
  HAVING sum("events") <> 0
  ORDER BY "day", "from_status", "to_status", "plan", "from_plan", "slot"
  ON CONFLICT ("day", "from_status", "to_status", "plan", "from_plan", "slot") DO UPDATE
    SET "events" = total."events" + excluded."events";
END
$$;
--> statement-breakpoint
-- A row of the table's type lists its columns in their order in the table: the new ones come last.
CREATE OR REPLACE FUNCTION "membership_days_track"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  writer_slot smallint := totals_slot(TG_OP);
  changes "membership_days"[] := '{}';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "membership_days";
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    changes := array(
      SELECT row(("created_at" AT TIME ZONE 'Europe/Amsterdam')::date, "from_status", "to_status", writer_slot, 1,
                 "plan", "from_plan")::"membership_days"
      FROM new_events);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    changes := changes || array(
      SELECT row(("created_at" AT TIME ZONE 'Europe/Amsterdam')::date, "from_status", "to_status", writer_slot, -1,
                 "plan", "from_plan")::"membership_days"
      FROM old_events);
  END IF;
  PERFORM add_to_membership_days(changes);
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO "membership_days" ("day", "from_status", "to_status", "plan", "from_plan", "slot", "events")
SELECT ("created_at" AT TIME ZONE 'Europe/Amsterdam')::date, "from_status", "to_status", "plan", "from_plan", 0, count(*)
FROM "membership_events" GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
-- The existing rows hold the orders and amounts already: the free accesses are added to slot 0.
INSERT INTO "order_days" AS total ("day", "currency", "status", "airport", "slot", "orders", "amount", "free_accesses")
SELECT ("created_at" AT TIME ZONE 'Europe/Amsterdam')::date, "currency", "status", "airport", 0, 0, 0, sum("free_accesses")
FROM "orders" WHERE "allowance_membership_id" IS NOT NULL
GROUP BY 1, 2, 3, 4 HAVING sum("free_accesses") <> 0
ON CONFLICT ("day", "currency", "status", "airport", "slot") DO UPDATE
  SET "free_accesses" = total."free_accesses" + excluded."free_accesses";
