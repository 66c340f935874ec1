-- The column holds the person's name, never a company's. Renamed, so that no row is rewritten; the
-- trigram index already follows the column, so it is renamed too instead of built again.
ALTER TABLE "customers" RENAME COLUMN "company_name" TO "full_name";--> statement-breakpoint
ALTER INDEX "customers_company_name_trgm_index" RENAME TO "customers_full_name_trgm_index";
