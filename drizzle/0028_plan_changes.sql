CREATE TABLE "plan_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"membership_id" uuid NOT NULL,
	"from_plan" text NOT NULL,
	"to_plan" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text DEFAULT 'charging' NOT NULL,
	"invoice_id" uuid,
	"last_outcome" text,
	"actor_user_id" text,
	"actor_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "plan_changes_idempotencyKey_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "plan_changes_amount_positive" CHECK ("plan_changes"."amount" > 0),
	CONSTRAINT "plan_changes_status_known" CHECK ("plan_changes"."status" in ('charging', 'done', 'declined'))
);
--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "scheduled_plan" text;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_changes" ADD CONSTRAINT "plan_changes_actor_user_id_user_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_changes_membership_id_created_at_index" ON "plan_changes" USING btree ("membership_id","created_at");--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_scheduled_plan_known" CHECK ("memberships"."scheduled_plan" in ('medium', 'premium'));