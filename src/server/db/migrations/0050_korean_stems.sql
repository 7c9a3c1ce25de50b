-- Korean words are written with their particles and endings attached (휴가를, 재택근무는): the
-- full-text vector gets them without, as the question's words are (queryTerms' KOREAN_SUFFIX in
-- server/retrieval/chunking.ts: the same list; a word keeps at least two syllables), so that the
-- full-text ranking and its GIN index serve Korean too (docs/decisions/0087-retrieval-at-scale.md).
CREATE FUNCTION korean_stems(body text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
  SELECT regexp_replace(body, '([가-힣]{2,}?)(에서는|에서|으로|부터|까지|에게|이나|이란|이면|하면|하려면|은|는|이|가|을|를|의|에|로|와|과|도|만)(?![가-힣])', '\1', 'g')
$$;--> statement-breakpoint
-- Dropping the column drops its index (0049): created again on the new column.
ALTER TABLE "document_chunks" DROP COLUMN "search_vector";--> statement-breakpoint
ALTER TABLE "document_chunks" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', korean_stems(coalesce(section, '') || ' ' || text))) STORED;--> statement-breakpoint
CREATE INDEX "document_chunks_search_idx" ON "document_chunks" USING gin ("search_vector") WITH (fastupdate=false);
