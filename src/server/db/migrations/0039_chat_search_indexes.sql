-- Search across my chats (`ILIKE '%word%'`, docs/decisions/0073-chat-search.md); pg_trgm comes from 0008.
-- Trigrams serve words of 3 characters or more. A 2-character word (Korean words often are) has no
-- trigram, so messages also get the set of their lower-cased 2-character pieces without white space.
-- COST: computing it row by row (a filter instead of the index) is what the planner must never choose.
CREATE FUNCTION chat_search_bigrams(body text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 10000
AS $$
  SELECT coalesce(array_agg(DISTINCT piece), '{}')
  FROM (SELECT lower(body) AS lowered) AS l,
       LATERAL (SELECT substr(l.lowered, i, 2) AS piece FROM generate_series(1, length(l.lowered) - 1) AS i) AS pieces
  WHERE piece !~ '\s'
$$;--> statement-breakpoint
CREATE INDEX "session_messages_text_trgm_idx" ON "session_messages" USING gin ("text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "session_messages_text_bigram_idx" ON "session_messages" USING gin (chat_search_bigrams("text"));--> statement-breakpoint
CREATE INDEX "sessions_title_trgm_idx" ON "sessions" USING gin ("title" gin_trgm_ops);