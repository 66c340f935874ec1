CREATE TABLE "withdrawal_overflow" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "withdrawals_outcome_received_at_id_index" ON "withdrawals" USING btree ("outcome","received_at","id");