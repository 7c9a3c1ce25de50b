-- Retrieval at scale (docs/decisions/0087-retrieval-at-scale.md). An embedding's sign bits: the
-- Hamming distance of two signatures ranks a question's candidates cheaply before the exact dot
-- product of the nearest 100. STRICT: a passage without an embedding has no signature.
CREATE FUNCTION embedding_signs(v real[]) RETURNS bit varying
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT string_agg(CASE WHEN x > 0 THEN '1' ELSE '0' END, '' ORDER BY i)::bit varying FROM unnest(v) WITH ORDINALITY AS u(x, i)
$$;--> statement-breakpoint
ALTER TABLE "document_chunks" ADD COLUMN "embedding_signs" bit varying GENERATED ALWAYS AS (embedding_signs(embedding)) STORED;--> statement-breakpoint
CREATE INDEX "document_chunks_search_idx" ON "document_chunks" USING gin ("search_vector") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "document_chunks_bigram_idx" ON "document_chunks" USING gin (chat_search_bigrams(coalesce("section", '') || ' ' || "text")) WITH (fastupdate=false);