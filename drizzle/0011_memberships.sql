CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"membership_id" uuid NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"idempotency_key" text NOT NULL,
	"provider_ref" text,
	"last_outcome" text,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_idempotencyKey_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "invoices_membershipId_periodStart_unique" UNIQUE("membership_id","period_start"),
	CONSTRAINT "invoices_amount_positive" CHECK ("invoices"."amount" > 0),
	CONSTRAINT "invoices_currency_known" CHECK ("invoices"."currency" in ('USD', 'EUR', 'GBP')),
	CONSTRAINT "invoices_status_known" CHECK ("invoices"."status" in ('open', 'paid', 'refunded', 'uncollectible', 'void'))
);
--> statement-breakpoint
CREATE TABLE "membership_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"membership_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor_user_id" text,
	"actor_label" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"email" text,
	"order_id" uuid,
	"plan" text NOT NULL,
	"currency" text NOT NULL,
	"price" integer NOT NULL,
	"status" text NOT NULL,
	"trial_ends_at" timestamp with time zone NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"trial_reminder_sent_at" timestamp with time zone,
	"grace_ends_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"payment_method_ref" text NOT NULL,
	"card_brand" text NOT NULL,
	"card_last4" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_email_unique" UNIQUE("email"),
	CONSTRAINT "memberships_price_positive" CHECK ("memberships"."price" > 0),
	CONSTRAINT "memberships_currency_known" CHECK ("memberships"."currency" in ('USD', 'EUR', 'GBP')),
	CONSTRAINT "memberships_status_known" CHECK ("memberships"."status" in ('trialing', 'active', 'past_due', 'canceled', 'ended')),
	CONSTRAINT "memberships_plan_known" CHECK ("memberships"."plan" in ('medium', 'premium'))
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid,
	"invoice_id" uuid,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"provider_ref" text NOT NULL,
	"actor_user_id" text,
	"actor_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_idempotencyKey_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount" > 0),
	CONSTRAINT "refunds_one_target" CHECK (("refunds"."order_id" is null) <> ("refunds"."invoice_id" is null))
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_events" ADD CONSTRAINT "membership_events_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_events" ADD CONSTRAINT "membership_events_actor_user_id_user_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_actor_user_id_user_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_next_attempt_at_index" ON "invoices" USING btree ("next_attempt_at") WHERE "invoices"."status" = 'open';--> statement-breakpoint
CREATE INDEX "invoices_status_paid_at_index" ON "invoices" USING btree ("status","paid_at");--> statement-breakpoint
CREATE INDEX "membership_events_membership_id_created_at_index" ON "membership_events" USING btree ("membership_id","created_at");--> statement-breakpoint
CREATE INDEX "membership_events_to_status_created_at_index" ON "membership_events" USING btree ("to_status","created_at");--> statement-breakpoint
CREATE INDEX "memberships_created_at_id_index" ON "memberships" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "memberships_status_created_at_id_index" ON "memberships" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "memberships_customer_id_index" ON "memberships" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "memberships_current_period_end_index" ON "memberships" USING btree ("current_period_end") WHERE "memberships"."status" in ('trialing', 'active');--> statement-breakpoint
CREATE INDEX "memberships_grace_ends_at_index" ON "memberships" USING btree ("grace_ends_at") WHERE "memberships"."status" = 'past_due';--> statement-breakpoint
CREATE INDEX "refunds_order_id_index" ON "refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "refunds_invoice_id_index" ON "refunds" USING btree ("invoice_id");