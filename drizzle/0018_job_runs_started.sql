ALTER TABLE "job_runs" DROP CONSTRAINT "job_runs_outcome_known";--> statement-breakpoint
ALTER TABLE "job_runs" ALTER COLUMN "finished_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "job_runs" ADD CONSTRAINT "job_runs_outcome_known" CHECK ("job_runs"."outcome" in ('done', 'skipped', 'failed', 'started', 'interrupted'));