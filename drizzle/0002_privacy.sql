CREATE TABLE "data_request_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"data_request_id" uuid NOT NULL,
	"action" text NOT NULL,
	"actor_user_id" text,
	"actor_email" text NOT NULL,
	"counts" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_request_events_action_known" CHECK ("data_request_events"."action" in ('recorded', 'exported', 'erased'))
);
--> statement-breakpoint
CREATE TABLE "data_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"kind" text NOT NULL,
	"received_on" date NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_requests_kind_known" CHECK ("data_requests"."kind" in ('access', 'export', 'erasure'))
);
--> statement-breakpoint
ALTER TABLE "data_request_events" ADD CONSTRAINT "data_request_events_data_request_id_data_requests_id_fk" FOREIGN KEY ("data_request_id") REFERENCES "public"."data_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_request_events" ADD CONSTRAINT "data_request_events_actor_user_id_user_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_request_events_data_request_id_created_at_index" ON "data_request_events" USING btree ("data_request_id","created_at");--> statement-breakpoint
CREATE INDEX "data_requests_completed_at_received_on_index" ON "data_requests" USING btree ("completed_at","received_on");