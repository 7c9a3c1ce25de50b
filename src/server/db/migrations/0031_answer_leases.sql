ALTER TYPE "public"."interrupted" ADD VALUE 'interrupted';--> statement-breakpoint
DROP INDEX "session_messages_streaming_idx";--> statement-breakpoint
-- Answers left streaming without a lease (by an earlier release) are swept 10 minutes after they started, as before.
ALTER TABLE "session_messages" ADD COLUMN "stream_owner" text;--> statement-breakpoint
ALTER TABLE "session_messages" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "session_messages_lease_idx" ON "session_messages" USING btree ("lease_expires_at") WHERE "session_messages"."streaming";--> statement-breakpoint
-- One usage row per answer (besides its web search row): its server and the sweep cannot both meter it.
CREATE UNIQUE INDEX "usage_records_answer_idx" ON "usage_records" USING btree ("message_id") WHERE "usage_records"."web_search_count" = 0;