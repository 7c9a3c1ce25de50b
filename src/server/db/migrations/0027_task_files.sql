ALTER TABLE "background_tasks" ADD COLUMN "file_key" text;--> statement-breakpoint
CREATE INDEX "background_tasks_file_sweep_idx" ON "background_tasks" USING btree ("finished_at") WHERE "background_tasks"."file_key" IS NOT NULL;--> statement-breakpoint
-- Exports finished before this migration own their file too (its key follows from the task); uploads' keys lived only in their job's payload.
UPDATE "background_tasks" SET "file_key" = 'tenants/' || "tenant_id" || '/member-exports/' || "id" || '.' || ("result"->>'format') WHERE "kind" = 'member-export' AND "status" = 'completed' AND "result"->>'format' IS NOT NULL;
