-- A streaming answer's text is rewritten at every flush (STREAM_FLUSH_SECONDS): indexing each version in
-- both GIN indexes was most of that write. Search reads finished messages only (domains/sessions/search).
DROP INDEX "session_messages_text_trgm_idx";--> statement-breakpoint
DROP INDEX "session_messages_text_bigram_idx";--> statement-breakpoint
CREATE INDEX "session_messages_text_trgm_idx" ON "session_messages" USING gin ("text" gin_trgm_ops) WHERE not "session_messages"."streaming";--> statement-breakpoint
CREATE INDEX "session_messages_text_bigram_idx" ON "session_messages" USING gin (chat_search_bigrams("text")) WHERE not "session_messages"."streaming";