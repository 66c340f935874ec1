-- An order's invoice number is drawn when its transaction commits, not when it becomes paid: the
-- yearly series stays locked until the commit either way, and drawn at the commit nothing else of
-- the transaction (its client's round trips, the event loop that sends its commit) happens while it
-- is held (ADR 028). A constraint trigger fires after the row is written, so it numbers the row
-- with an update of its own (which does not touch "status", so fires nothing again), whatever
-- status a later statement of the same transaction gave it.
DROP TRIGGER "orders_invoice_number" ON "orders";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "orders_invoice_number"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "orders" SET "invoice_number" = next_document_number('invoice', now())
  WHERE "id" = NEW."id" AND "invoice_number" IS NULL;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "orders_invoice_number" AFTER INSERT OR UPDATE OF "status" ON "orders"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW."status" = 'paid' AND NEW."invoice_number" IS NULL)
  EXECUTE FUNCTION "orders_invoice_number"();
