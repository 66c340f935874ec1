-- A booking's triggers add to the dashboard's totals and the daily figures (ADR 011, ADR 012)
-- through these two functions. Written in SQL, their statement was parsed and planned again at every
-- call; in PL/pgSQL its plan is kept for the session. Same statements, same lock order.
CREATE OR REPLACE FUNCTION "add_to_order_totals"(changes "order_totals"[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "order_totals" AS total ("status", "currency", "slot", "orders", "amount")
  SELECT "status", "currency", "slot", sum("orders"), sum("amount")
  FROM unnest(changes)
  GROUP BY "status", "currency", "slot"
  HAVING sum("orders") <> 0 OR sum("amount") <> 0
  -- Every statement locks the rows it adds to in this one order, so two cannot deadlock on them.
  ORDER BY "status", "currency", "slot"
  ON CONFLICT ("status", "currency", "slot") DO UPDATE
    SET "orders" = total."orders" + excluded."orders", "amount" = total."amount" + excluded."amount";
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "add_to_order_days"(changes "order_days"[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "order_days" AS total ("day", "currency", "status", "airport", "slot", "orders", "amount")
  SELECT "day", "currency", "status", "airport", "slot", sum("orders"), sum("amount")
  FROM unnest(changes)
  GROUP BY "day", "currency", "status", "airport", "slot"
  HAVING sum("orders") <> 0 OR sum("amount") <> 0
  ORDER BY "day", "currency", "status", "airport", "slot"
  ON CONFLICT ("day", "currency", "status", "airport", "slot") DO UPDATE
    SET "orders" = total."orders" + excluded."orders", "amount" = total."amount" + excluded."amount";
END
$$;
--> statement-breakpoint
-- Rate-limit counters hold a minute's worth of throttling: losing them in a crash costs nothing, while
-- logging them made every counted request wait for a WAL flush. An unlogged table is emptied by crash
-- recovery (not by a clean restart) and is not copied to standbys.
ALTER TABLE "rate_limit" SET UNLOGGED;
