DROP INDEX "outbox_status_next_attempt_at_index";--> statement-breakpoint
CREATE INDEX "outbox_due_index" ON "outbox" USING btree ("next_attempt_at") WHERE "outbox"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "outbox_held_index" ON "outbox" USING btree ("created_at","id") WHERE "outbox"."status" = 'pending';