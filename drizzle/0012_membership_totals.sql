CREATE TABLE "membership_days" (
	"day" date NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"slot" smallint NOT NULL,
	"events" bigint NOT NULL,
	CONSTRAINT "membership_days_day_fromStatus_toStatus_slot_unique" UNIQUE NULLS NOT DISTINCT("day","from_status","to_status","slot")
);
--> statement-breakpoint
CREATE TABLE "membership_totals" (
	"status" text NOT NULL,
	"plan" text NOT NULL,
	"currency" text NOT NULL,
	"slot" smallint NOT NULL,
	"members" bigint NOT NULL,
	"recurring" bigint NOT NULL,
	CONSTRAINT "membership_totals_status_plan_currency_slot_pk" PRIMARY KEY("status","plan","currency","slot")
);
--> statement-breakpoint
-- The membership figures are kept like the orders' (ADR 011, ADR 012, ADR 017): by statement-level
-- triggers whatever writes the memberships and their history, in the same slots (deletions in their
-- own), with their upserts in PL/pgSQL so that their plans are kept (migration 0007).
-- A member's fee counts as recurring revenue while it will be charged at the period's end.
CREATE FUNCTION "membership_recurring_fee"(status text, cancel_at_period_end boolean, price integer) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN status IN ('trialing', 'active') AND NOT cancel_at_period_end THEN price ELSE 0 END
$$;
--> statement-breakpoint
CREATE FUNCTION "add_to_membership_totals"(changes "membership_totals"[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "membership_totals" AS total ("status", "plan", "currency", "slot", "members", "recurring")
  SELECT "status", "plan", "currency", "slot", sum("members"), sum("recurring")
  FROM unnest(changes)
  GROUP BY "status", "plan", "currency", "slot"
  HAVING sum("members") <> 0 OR sum("recurring") <> 0
  -- Every statement locks the rows it adds to in this one order, so two cannot deadlock on them.
  ORDER BY "status", "plan", "currency", "slot"
  ON CONFLICT ("status", "plan", "currency", "slot") DO UPDATE
    SET "members" = total."members" + excluded."members", "recurring" = total."recurring" + excluded."recurring";
END
$$;
--> statement-breakpoint
CREATE FUNCTION "membership_totals_track"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  writer_slot smallint := totals_slot(TG_OP);
  changes "membership_totals"[] := '{}';
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "membership_totals";
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    changes := array(
      SELECT row("status", "plan", "currency", writer_slot, 1,
                 membership_recurring_fee("status", "cancel_at_period_end", "price"))::"membership_totals"
      FROM new_memberships);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    changes := changes || array(
      SELECT row("status", "plan", "currency", writer_slot, -1,
                 -membership_recurring_fee("status", "cancel_at_period_end", "price"))::"membership_totals"
      FROM old_memberships);
  END IF;
  PERFORM add_to_membership_totals(changes);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "add_to_membership_days"(changes "membership_days"[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "membership_days" AS total ("day", "from_status", "to_status", "slot", "events")
  SELECT "day", "from_status", "to_status", "slot", sum("events")
  FROM unnest(changes)
  GROUP BY "day", "from_status", "to_status", "slot"
  HAVING sum("events") <> 0
  ORDER BY "day", "from_status", "to_status", "slot"
  ON CONFLICT ("day", "from_status", "to_status", "slot") DO UPDATE SET "events" = total."events" + excluded."events";
END
$$;
--> statement-breakpoint
-- A day is the change's day in Amsterdam, where the back office counts days, as for `order_days`.
CREATE FUNCTION "membership_days_track"() RETURNS trigger LANGUAGE plpgsql AS $$
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
      SELECT row(("created_at" AT TIME ZONE 'Europe/Amsterdam')::date, "from_status", "to_status", writer_slot, 1)::"membership_days"
      FROM new_events);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    changes := changes || array(
      SELECT row(("created_at" AT TIME ZONE 'Europe/Amsterdam')::date, "from_status", "to_status", writer_slot, -1)::"membership_days"
      FROM old_events);
  END IF;
  PERFORM add_to_membership_days(changes);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "membership_totals_after_insert" AFTER INSERT ON "memberships"
  REFERENCING NEW TABLE AS new_memberships FOR EACH STATEMENT EXECUTE FUNCTION "membership_totals_track"();
--> statement-breakpoint
-- Every update fires it (no column list with transition tables): the billing job's new periods and
-- reminders add up to nothing and write nothing.
CREATE TRIGGER "membership_totals_after_update" AFTER UPDATE ON "memberships"
  REFERENCING OLD TABLE AS old_memberships NEW TABLE AS new_memberships FOR EACH STATEMENT EXECUTE FUNCTION "membership_totals_track"();
--> statement-breakpoint
CREATE TRIGGER "membership_totals_after_delete" AFTER DELETE ON "memberships"
  REFERENCING OLD TABLE AS old_memberships FOR EACH STATEMENT EXECUTE FUNCTION "membership_totals_track"();
--> statement-breakpoint
CREATE TRIGGER "membership_totals_after_truncate" AFTER TRUNCATE ON "memberships"
  FOR EACH STATEMENT EXECUTE FUNCTION "membership_totals_track"();
--> statement-breakpoint
CREATE TRIGGER "membership_days_after_insert" AFTER INSERT ON "membership_events"
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION "membership_days_track"();
--> statement-breakpoint
CREATE TRIGGER "membership_days_after_update" AFTER UPDATE ON "membership_events"
  REFERENCING OLD TABLE AS old_events NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION "membership_days_track"();
--> statement-breakpoint
CREATE TRIGGER "membership_days_after_delete" AFTER DELETE ON "membership_events"
  REFERENCING OLD TABLE AS old_events FOR EACH STATEMENT EXECUTE FUNCTION "membership_days_track"();
--> statement-breakpoint
CREATE TRIGGER "membership_days_after_truncate" AFTER TRUNCATE ON "membership_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "membership_days_track"();
--> statement-breakpoint
-- Creating the triggers locked the memberships and their history against writes until the migration
-- commits, so none can slip between these counts and the triggers.
INSERT INTO "membership_totals" ("status", "plan", "currency", "slot", "members", "recurring")
SELECT "status", "plan", "currency", 0, count(*), sum(membership_recurring_fee("status", "cancel_at_period_end", "price"))
FROM "memberships" GROUP BY "status", "plan", "currency";
--> statement-breakpoint
INSERT INTO "membership_days" ("day", "from_status", "to_status", "slot", "events")
SELECT ("created_at" AT TIME ZONE 'Europe/Amsterdam')::date, "from_status", "to_status", 0, count(*)
FROM "membership_events" GROUP BY 1, 2, 3;
