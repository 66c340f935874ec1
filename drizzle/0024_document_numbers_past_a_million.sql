-- lpad cuts a longer string down to its length: the millionth number of a year came out as the
-- 100,000th's and the payment that drew it failed on the unique number. Six digits stay the least.
CREATE OR REPLACE FUNCTION "next_document_number"(document_kind text, issued_at timestamptz) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  issued_year smallint := extract(year from issued_at AT TIME ZONE 'Europe/Amsterdam');
  drawn integer;
BEGIN
  INSERT INTO "document_number_series" AS series ("kind", "year", "last") VALUES (document_kind, issued_year, 1)
  ON CONFLICT ("kind", "year") DO UPDATE SET "last" = series."last" + 1
  RETURNING series."last" INTO drawn;
  RETURN (CASE WHEN document_kind = 'credit_note' THEN 'C' ELSE '' END) || issued_year || '-'
    || lpad(drawn::text, greatest(6, length(drawn::text)), '0');
END
$$;
