CREATE TABLE "hosted_payments" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"ref" text NOT NULL,
	"customer_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hosted_payments_ref_unique" UNIQUE("ref")
);
--> statement-breakpoint
CREATE TABLE "provider_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "provider_subscription_ref" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "provider_customer_ref" text;--> statement-breakpoint
ALTER TABLE "hosted_payments" ADD CONSTRAINT "hosted_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_providerSubscriptionRef_unique" UNIQUE("provider_subscription_ref");--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_providerRef_unique" UNIQUE("provider_ref");