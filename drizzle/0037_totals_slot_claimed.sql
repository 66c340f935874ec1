-- A transaction that writes to the summary tables adds to a slot no other running transaction has
-- (ADR 011): the first of its triggers claims the lowest free one with a transaction-level advisory
-- lock (class 11, the slot as key) and remembers it for the rest of the transaction in a local
-- setting, so every row it adds to is in that slot. No writer then waits for another's summary rows,
-- whatever they lock them in, where two connections whose backends' pid gave the same slot (% 8)
-- queued on each other's rows until the first committed. Both the lock and the setting end with the
-- transaction, and with a rolled-back savepoint that claimed them, as the row locks it took do. With
-- all 64 slots claimed, a writer shares one by its backend's pid, and may wait, as before. The
-- operation no longer matters: deletions, which had slot 8 to themselves, claim one like the others.
CREATE OR REPLACE FUNCTION "totals_slot"(operation text) RETURNS smallint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  claimed text := current_setting('site.totals_slot', true);
BEGIN
  IF claimed <> '' THEN
    RETURN claimed::smallint;
  END IF;
  FOR slot IN 0..63 LOOP
    IF pg_try_advisory_xact_lock(11, slot) THEN
      PERFORM set_config('site.totals_slot', slot::text, true);
      RETURN slot;
    END IF;
  END LOOP;
  RETURN (pg_backend_pid() % 64)::smallint;
END
$$;
