-- The sales statistics read only these columns of a period's orders: with them in the index, a
-- period is answered from the index alone (where the visibility map allows), never from the table.
-- Drizzle cannot declare INCLUDE columns, so this index lives here and not in app/db/schema.ts.
CREATE INDEX "orders_created_at_statistics_index" ON "orders" USING btree ("created_at") INCLUDE ("currency", "status", "amount", "airport");
