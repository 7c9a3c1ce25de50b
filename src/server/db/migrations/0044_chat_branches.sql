ALTER TABLE "session_messages" ADD COLUMN "parent_id" integer;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "active_leaf_id" integer;--> statement-breakpoint
-- Every session so far is one chain: each message follows the one before it.
UPDATE "session_messages" AS m SET "parent_id" = p."previous_id"
FROM (SELECT "id", lag("id") OVER (PARTITION BY "session_id" ORDER BY "id") AS "previous_id" FROM "session_messages") AS p
WHERE p."id" = m."id" AND p."previous_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "session_messages" ADD CONSTRAINT "session_messages_parent_id_session_messages_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."session_messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_messages_parent_idx" ON "session_messages" USING btree ("session_id","parent_id","id");