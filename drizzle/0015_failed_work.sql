CREATE TABLE "failed_provider_events" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"object_ref" text,
	"last_error" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"first_failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retried_at" timestamp with time zone,
	"retried_by" text
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job" text NOT NULL,
	"outcome" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"counts" jsonb,
	"error" text,
	CONSTRAINT "job_runs_job_known" CHECK ("job_runs"."job" in ('retention', 'billing')),
	CONSTRAINT "job_runs_outcome_known" CHECK ("job_runs"."outcome" in ('done', 'skipped', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "retried_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "retried_by" text;--> statement-breakpoint
CREATE INDEX "failed_provider_events_last_failed_at_index" ON "failed_provider_events" USING btree ("last_failed_at");--> statement-breakpoint
CREATE INDEX "job_runs_job_outcome_started_at_index" ON "job_runs" USING btree ("job","outcome","started_at");--> statement-breakpoint
CREATE INDEX "job_runs_job_started_at_index" ON "job_runs" USING btree ("job","started_at");--> statement-breakpoint
CREATE INDEX "outbox_failed_created_at_id_index" ON "outbox" USING btree ("created_at","id") WHERE "outbox"."status" = 'failed';--> statement-breakpoint
-- Mails given up before this migration: their last attempt took the worker's five-minute lease.
UPDATE "outbox" SET "failed_at" = "next_attempt_at" - interval '5 minutes' WHERE "status" = 'failed';
