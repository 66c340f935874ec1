CREATE TABLE "document_number_series" (
	"kind" text NOT NULL,
	"year" smallint NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "document_number_series_kind_year_pk" PRIMARY KEY("kind","year"),
	CONSTRAINT "document_number_series_kind_known" CHECK ("document_number_series"."kind" in ('invoice', 'credit_note'))
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "invoice_number" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "credit_note_number" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_number_unique" UNIQUE("number");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_invoiceNumber_unique" UNIQUE("invoice_number");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_creditNoteNumber_unique" UNIQUE("credit_note_number");--> statement-breakpoint
-- Invoice and credit-note numbers (ADR 028): one gap-free series per kind and year (in Amsterdam),
-- drawn by triggers in the transaction that pays or refunds, however it does (card, Stripe event,
-- billing job, an admin): the series row stays locked until that transaction ends, so a rollback
-- gives the number back and two payments never draw the same one.
CREATE FUNCTION "next_document_number"(document_kind text, issued_at timestamptz) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  issued_year smallint := extract(year from issued_at AT TIME ZONE 'Europe/Amsterdam');
  drawn integer;
BEGIN
  INSERT INTO "document_number_series" AS series ("kind", "year", "last") VALUES (document_kind, issued_year, 1)
  ON CONFLICT ("kind", "year") DO UPDATE SET "last" = series."last" + 1
  RETURNING series."last" INTO drawn;
  RETURN (CASE WHEN document_kind = 'credit_note' THEN 'C' ELSE '' END) || issued_year || '-' || lpad(drawn::text, 6, '0');
END
$$;
--> statement-breakpoint
CREATE FUNCTION "orders_invoice_number"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" = 'paid' AND NEW."invoice_number" IS NULL THEN
    NEW."invoice_number" := next_document_number('invoice', now());
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "orders_invoice_number" BEFORE INSERT OR UPDATE OF "status" ON "orders"
  FOR EACH ROW EXECUTE FUNCTION "orders_invoice_number"();
--> statement-breakpoint
CREATE FUNCTION "invoices_number"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" = 'paid' AND NEW."number" IS NULL THEN
    NEW."number" := next_document_number('invoice', coalesce(NEW."paid_at", now()));
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "invoices_number" BEFORE INSERT OR UPDATE OF "status" ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION "invoices_number"();
--> statement-breakpoint
CREATE FUNCTION "refunds_credit_note_number"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" = 'done' AND NEW."credit_note_number" IS NULL THEN
    NEW."credit_note_number" := next_document_number('credit_note', now());
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "refunds_credit_note_number" BEFORE INSERT OR UPDATE OF "status" ON "refunds"
  FOR EACH ROW EXECUTE FUNCTION "refunds_credit_note_number"();
--> statement-breakpoint
-- What was paid and refunded before numbers, numbered in the order it happened, year by year.
CREATE TEMPORARY TABLE "documents_before_numbers" AS
  SELECT 'invoice' AS kind, 'order' AS source, o."id", min(e."created_at") AS issued_at
    FROM "orders" o JOIN "order_events" e ON e."order_id" = o."id" AND e."to_status" = 'paid'
    GROUP BY o."id"
  UNION ALL
  SELECT 'invoice', 'invoice', "id", coalesce("paid_at", "updated_at") FROM "invoices" WHERE "status" IN ('paid', 'refunded')
  UNION ALL
  SELECT 'credit_note', 'refund', "id", "created_at" FROM "refunds" WHERE "status" = 'done';
--> statement-breakpoint
CREATE TEMPORARY TABLE "numbered_before" AS
  SELECT source, "id", kind, extract(year from issued_at AT TIME ZONE 'Europe/Amsterdam')::smallint AS year,
    row_number() OVER (
      PARTITION BY kind, extract(year from issued_at AT TIME ZONE 'Europe/Amsterdam') ORDER BY issued_at, "id"
    ) AS n
  FROM "documents_before_numbers";
--> statement-breakpoint
UPDATE "orders" SET "invoice_number" = b.year || '-' || lpad(b.n::text, 6, '0')
  FROM "numbered_before" b WHERE b.source = 'order' AND b."id" = "orders"."id";
--> statement-breakpoint
UPDATE "invoices" SET "number" = b.year || '-' || lpad(b.n::text, 6, '0')
  FROM "numbered_before" b WHERE b.source = 'invoice' AND b."id" = "invoices"."id";
--> statement-breakpoint
UPDATE "refunds" SET "credit_note_number" = 'C' || b.year || '-' || lpad(b.n::text, 6, '0')
  FROM "numbered_before" b WHERE b.source = 'refund' AND b."id" = "refunds"."id";
--> statement-breakpoint
INSERT INTO "document_number_series" ("kind", "year", "last")
  SELECT kind, year, max(n) FROM "numbered_before" GROUP BY kind, year;
--> statement-breakpoint
DROP TABLE "documents_before_numbers";
--> statement-breakpoint
DROP TABLE "numbered_before";
