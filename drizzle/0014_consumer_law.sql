CREATE TABLE "withdrawals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"contract_number" text NOT NULL,
	"email" text NOT NULL,
	"outcome" text NOT NULL,
	"scope" text NOT NULL,
	"order_id" uuid,
	"membership_id" uuid,
	"idempotency_key" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawals_idempotencyKey_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "withdrawals_outcome_known" CHECK ("withdrawals"."outcome" in ('withdrawn', 'late', 'unmatched')),
	CONSTRAINT "withdrawals_scope_known" CHECK ("withdrawals"."scope" in ('membership', 'fast-track', 'both'))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "consent_wording" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "consented_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "withdrawals_received_at_id_index" ON "withdrawals" USING btree ("received_at","id");--> statement-breakpoint
CREATE INDEX "withdrawals_order_id_index" ON "withdrawals" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "withdrawals_membership_id_index" ON "withdrawals" USING btree ("membership_id");