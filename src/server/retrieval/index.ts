import { type SQL, asc, eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../deps';
import { rowsOf } from '../db/rows';
import { documentChunks, fileSections, files } from '../db/schema';
import { chunkSections, queryTerms, snippetOf } from './chunking';

export { embedderFromConfig, openAiCompatibleEmbedder, type Embedder } from './embeddings';

/** The database, and the embedding model when the server has EMBEDDING_* settings. */
export type RetrievalDeps = Pick<AppDeps, 'db' | 'embedder'>;

/** Rows per insert statement, well under PostgreSQL's 65,535 bind parameters. */
const INSERT_BATCH = 500;

/**
 * (Re)builds the passages of a file from its parsed sections (file_sections), with embeddings when
 * the server has EMBEDDING_* settings. Idempotent: the file's old passages are replaced, so the
 * parse job calls it after every parse, for chat files and chatbot documents alike. An embedding
 * failure leaves the passages without vectors (text ranking still finds them). Returns how many.
 */
export async function indexFile({ db, embedder }: RetrievalDeps, fileId: number): Promise<number> {
  const [file] = await db.select({ tenantId: files.tenantId }).from(files).where(eq(files.id, fileId));
  if (!file) return 0;
  const sections = await db
    .select({ page: fileSections.page, heading: fileSections.heading, text: fileSections.text })
    .from(fileSections)
    .where(eq(fileSections.fileId, fileId))
    .orderBy(asc(fileSections.ordinal));
  const chunks = chunkSections(sections);
  let vectors: number[][] | null = null;
  if (embedder && chunks.length > 0) {
    vectors = await embedder.embed(chunks.map((chunk) => [chunk.section, chunk.text].filter(Boolean).join('\n'))).catch(() => null);
  }
  const rows = chunks.map((chunk, index) => ({
    tenantId: file.tenantId,
    fileId,
    ...chunk,
    embedding: vectors?.[index] ?? null,
    embeddingModel: vectors ? (embedder?.model ?? null) : null,
  }));
  await db.transaction(async (tx) => {
    await tx.delete(documentChunks).where(eq(documentChunks.fileId, fileId));
    for (let start = 0; start < rows.length; start += INSERT_BATCH) await tx.insert(documentChunks).values(rows.slice(start, start + INSERT_BATCH));
  });
  return rows.length;
}

/** An SQL array of the values, one parameter each (Drizzle would write a JS array as a list). */
const sqlArray = (values: readonly (string | number)[], type: 'text' | 'int') =>
  values.length === 0
    ? sql.raw(`'{}'::${type}[]`)
    : sql`array[${sql.join(
        values.map((value) => sql`${value}`),
        sql`, `,
      )}]::${sql.raw(type)}[]`;
const textArray = (values: readonly string[]) => sqlArray(values, 'text');
const intArray = (values: readonly number[]) => sqlArray(values, 'int');

/**
 * Files among `fileIds` that were parsed but have no passages yet (parsed before indexing existed,
 * or by a job that did not index). Two index probes a file, whatever the files' size: it runs before every search.
 */
async function indexMissing(deps: RetrievalDeps, tenantId: number, fileIds: number[]): Promise<void> {
  const rows = rowsOf<{ id: number }>(
    await deps.db.execute(sql`
      select f.id from unnest(${intArray(fileIds)}) as f(id)
      where exists (select 1 from ${fileSections} s where s.file_id = f.id and s.tenant_id = ${tenantId})
        and not exists (select 1 from ${documentChunks} c where c.file_id = f.id)`),
  );
  for (const { id } of rows) await indexFile(deps, Number(id));
}

export interface Passage {
  fileId: number;
  name: string;
  page: number | null;
  section: string | null;
  text: string;
  snippet: string;
}

/** Reciprocal rank fusion constant: the usual 60 keeps one list's top rank from outweighing agreement between lists. */
const RRF_K = 60;
/** Passages per ranking that go on to the trigram re-ranking; word_similarity is too slow to run on every passage of a long document. */
const CANDIDATES = 40;
/** Trigram word similarity from which a question word counts as present in a passage (another form of it, a typo). */
const MIN_WORD_SIMILARITY = 0.5;
/**
 * Passages a question word is looked up in: a word found in more is "common" (its weight is taken
 * from this count, and its passages become candidates only together with another common word).
 */
const TERM_MATCHES_MAX = 200;
/** Common words whose pairs are looked up (the pairs grow with the square). */
const COMMON_TERMS_PAIRED = 6;
/** Best full-text matches that become candidates. */
const TEXT_CANDIDATES = 200;
/** Question words (full-text lexemes) whose pairs make the full-text candidates' query. */
const PAIRED_WORDS = 8;
/** Candidates nearest to the question by the Hamming distance of the embeddings' sign bits, whose exact cosine is then computed. */
const VECTOR_CANDIDATES = 100;

/**
 * The search's transaction settings (as the chat search's, domains/sessions/search.ts). No
 * sequential scan: document_chunks holds every tenant's passages, and the candidates must come
 * from the indexes. No JIT: the bigram function's high COST (migration 0039) makes the estimates
 * large enough for it, and compiling took 2 s of a statement that runs in tens of milliseconds.
 */
const SEARCH_SETTINGS = sql`select set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)`;

/**
 * A passage's rank by `score` (best first, no score last), passages with equal scores sharing the
 * mean of their places: a hundred passages tied at the second place (they have the same one common
 * word) rank 51.5 each, not 2, so that a tie does not outweigh one passage's single first place.
 */
const fractionalRank = (score: SQL) => sql`(rank() over (order by ${score} desc nulls last) + (count(*) over (partition by ${score}) - 1) / 2.0)`;

interface PassageRow {
  file_id: number;
  name: string;
  page: number | null;
  section: string | null;
  text: string;
}

/**
 * The passages of `fileIds` that best answer `question`, best first, fused by reciprocal rank from
 * up to four rankings of candidate passages:
 * - full-text search (English stemming and stop words; other scripts match whole words, Korean ones
 *   without their particles);
 * - coverage: the question's words (Korean stems, Chinese and Japanese character pairs) found in
 *   the passage, each weighted by how rare it is among these passages;
 * - trigram word similarity (pg_trgm) of the question's words, on the best candidates of the
 *   others: other forms of a word, particles and endings, typos;
 * - with embeddings configured, the cosine similarity of the vectors.
 * A passage must match in at least one of them. So that a question costs about the same over 100
 * passages or 100,000, the candidates come from indexes (docs/decisions/0087-retrieval-at-scale.md):
 * every passage containing a question word found in at most TERM_MATCHES_MAX passages (GIN on the
 * full-text vector for Latin words, on the 2-character pieces then strpos for other scripts), up to
 * that many containing two of the common ones, and the best full-text matches having three (else
 * two) of the question's words. The rankings are computed on these only; with embeddings, the candidates nearest
 * by the sign bits' Hamming distance get their exact cosine (a passage the text did not reach is
 * not found by its vector).
 */
export async function searchPassages(
  deps: RetrievalDeps,
  { tenantId, fileIds, question, limit = 5 }: { tenantId: number; fileIds: number[]; question: string; limit?: number },
): Promise<Passage[]> {
  const terms = queryTerms(question);
  if (fileIds.length === 0 || terms.length === 0) return [];
  await indexMissing(deps, tenantId, fileIds);
  const { db, embedder } = deps;
  const [queryVector] = embedder ? await embedder.embed([question]).catch(() => [] as number[][]) : [];
  const termArray = textArray(terms);
  // A one-character word has no 2-character piece for the index to look up: it only counts in the trigram re-ranking.
  // Latin letters and digits: words, found by the full-text index (their English stems). Other
  // scripts: substrings, found by the 2-character pieces' index (Latin letters' pieces are too
  // common: "learning" has 7 of them, each in most English passages, and strpos would read thousands).
  const wordTerms = terms.filter((term) => /^[a-z0-9]+$/.test(term));
  const pieceTerms = terms.filter((term) => term.length >= 2 && !wordTerms.includes(term));
  const ids = sql.join(
    fileIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const scope = sql`c.tenant_id = ${tenantId} and c.file_id in (${ids})`;
  // `+ 0`: not through the file index. A word's lookup reads at most TERM_MATCHES_MAX + 1 rows; ANDing
  // its bitmap with one of every passage of the searched files cost more than the rows it removed.
  const lookupScope = sql`c.tenant_id = ${tenantId} and c.file_id + 0 in (${ids})`;
  const body = sql`lower(coalesce(c.section || ' ', '') || c.text)`;
  const pieces = sql`chat_search_bigrams(coalesce(c.section, '') || ' ' || c.text)`;
  const tsquery = sql`websearch_to_tsquery('english', ${terms.join(' or ')})`;
  const vectorLiteral = queryVector && embedder ? `{${queryVector.join(',')}}` : null;
  // Hamming distance of the sign bits for every candidate of the same model, the exact cosine for the nearest of them.
  const distance = vectorLiteral
    ? sql`case when c.embedding_model = ${embedder!.model} and bit_length(c.embedding_signs) = ${queryVector!.length}
        then bit_count(c.embedding_signs # embedding_signs(${vectorLiteral}::real[])) end`
    : sql`null::bigint`;
  const cosine = vectorLiteral ? sql`(select sum(a * b) from unnest(c.embedding, ${vectorLiteral}::real[]) as v(a, b))` : sql`null::float8`;
  const statement = sql`
      with total as materialized (
        -- Passages are numbered from 0 in each file: the last ordinal counts them with one index probe a file.
        select coalesce(sum(last.ordinal + 1), 0)::float8 as n from unnest(${intArray(fileIds)}) as f(id)
        cross join lateral (select c.ordinal from ${documentChunks} c where c.file_id = f.id and c.tenant_id = ${tenantId} order by c.ordinal desc limit 1) as last
      ),
      term_hits as materialized (
        select t.term, h.id from unnest(${textArray(pieceTerms)}) as t(term)
        cross join lateral (
          select c.id from ${documentChunks} c
          where ${lookupScope} and ${pieces} @> chat_search_bigrams(t.term) and strpos(${body}, t.term) > 0
          limit ${TERM_MATCHES_MAX + 1}
        ) as h
        union all
        select t.term, h.id from unnest(${textArray(wordTerms)}) as t(term)
        cross join lateral (
          select c.id from ${documentChunks} c
          where ${lookupScope} and c.search_vector @@ plainto_tsquery('english', t.term)
          limit ${TERM_MATCHES_MAX + 1}
        ) as h
      ),
      df as (select term, count(*) as hits from term_hits group by term),
      common as (select term from df where hits > ${TERM_MATCHES_MAX} and term = any(${textArray(pieceTerms)}) order by hits limit ${COMMON_TERMS_PAIRED}),
      pair_hits as materialized (
        select h.id from common a join common b on a.term < b.term
        cross join lateral (
          select c.id from ${documentChunks} c
          where ${lookupScope} and ${pieces} @> (chat_search_bigrams(a.term) || chat_search_bigrams(b.term)) and strpos(${body}, a.term) > 0 and strpos(${body}, b.term) > 0
          limit ${TERM_MATCHES_MAX}
        ) as h
      ),
      lexemes as materialized (
        select distinct plainto_tsquery('english', t)::text as q from unnest(${termArray}) as t
        where numnode(plainto_tsquery('english', t)) > 0 limit ${PAIRED_WORDS}
      ),
      -- Full-text candidates: the passages with three of the question's words, ranked; when there
      -- are none, with two; only when there are none either and no rare word was found, with any
      -- of them. Ranking every passage that has one everyday word, as "data", read 30,000 rows;
      -- every one with two of them ("days" and "week") thousands.
      text_triples as materialized (
        select c.id from ${documentChunks} c where ${scope}
          and c.search_vector @@ (select string_agg('(' || a.q || ' & ' || b.q || ' & ' || d.q || ')', ' | ')::tsquery
            from lexemes a join lexemes b on a.q < b.q join lexemes d on b.q < d.q)
        order by ts_rank_cd(c.search_vector, ${tsquery}) desc limit ${TEXT_CANDIDATES}
      ),
      text_pairs as materialized (
        select c.id from ${documentChunks} c where ${scope} and not exists (select 1 from text_triples)
          and c.search_vector @@ (select string_agg('(' || a.q || ' & ' || b.q || ')', ' | ')::tsquery from lexemes a join lexemes b on a.q < b.q)
        order by ts_rank_cd(c.search_vector, ${tsquery}) desc limit ${TEXT_CANDIDATES}
      ),
      text_any as materialized (
        select c.id from ${documentChunks} c where ${scope} and not exists (select 1 from text_triples) and not exists (select 1 from text_pairs)
          and not exists (select 1 from df where hits <= ${TERM_MATCHES_MAX}) and c.search_vector @@ ${tsquery}
        order by ts_rank_cd(c.search_vector, ${tsquery}) desc limit ${TEXT_CANDIDATES}
      ),
      candidate_ids as (
        select h.id from term_hits h join df using (term) where df.hits <= ${TERM_MATCHES_MAX}
        union select id from pair_hits union select id from text_triples union select id from text_pairs union select id from text_any
      ),
      measured as materialized (
        select c.id, c.file_id, c.ordinal, f.name, c.page, c.section, c.text, ${body} as body,
          ts_rank_cd(c.search_vector, ${tsquery}) as fts,
          (select coalesce(sum(ln(1 + total.n / df.hits)), 0) from df, total where strpos(${body}, df.term) > 0) as cover,
          ${distance} as distance
        from candidate_ids k join ${documentChunks} c on c.id = k.id join ${files} f on f.id = c.file_id
      ),
      nearest as materialized (
        select m.id, ${cosine} as vec from measured m join ${documentChunks} c on c.id = m.id
        where m.distance is not null order by m.distance limit ${VECTOR_CANDIDATES}
      ),
      scored as (select m.*, n.vec from measured m left join nearest n using (id)),
      ranked as (
        select s.*,
          ${fractionalRank(sql`s.fts`)} as fts_rank,
          ${fractionalRank(sql`s.cover`)} as cover_rank,
          ${fractionalRank(sql`s.vec`)} as vec_rank
        from scored s
      ),
      candidates as materialized (
        select r.*,
          (select coalesce(sum(sim), 0) from (select word_similarity(term, r.body) as sim from unnest(${termArray}) as term) as w where sim >= ${MIN_WORD_SIMILARITY}) as trgm
        from ranked r
        where (r.fts > 0 and r.fts_rank <= ${CANDIDATES}) or (r.cover > 0 and r.cover_rank <= ${CANDIDATES}) or (r.vec is not null and r.vec_rank <= ${CANDIDATES})
      ),
      fused as (
        select c.*,
          case when c.fts > 0 then 1.0 / (${RRF_K} + c.fts_rank) else 0 end
          + case when c.cover > 0 then 1.0 / (${RRF_K} + c.cover_rank) else 0 end
          + case when c.trgm > 0 then 1.0 / (${RRF_K} + ${fractionalRank(sql`c.trgm`)}) else 0 end
          + case when c.vec is not null then 1.0 / (${RRF_K} + c.vec_rank) else 0 end as score
        from candidates c
      )
      select file_id, name, page, section, text from fused order by score desc, file_id, ordinal limit ${limit}`;
  const rows = await db.transaction(async (tx) => {
    await tx.execute(SEARCH_SETTINGS);
    return rowsOf<PassageRow>(await tx.execute(statement));
  });
  return rows.map((row) => ({
    fileId: Number(row.file_id),
    name: row.name,
    page: row.page === null ? null : Number(row.page),
    section: row.section,
    text: row.text,
    snippet: snippetOf(row.text, terms),
  }));
}
