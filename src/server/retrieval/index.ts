import { and, asc, eq, inArray, sql } from 'drizzle-orm';
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

/** Files among `fileIds` that were parsed but have no passages yet (parsed before indexing existed, or by a job that did not index). */
async function indexMissing(deps: RetrievalDeps, tenantId: number, fileIds: number[]): Promise<void> {
  const { db } = deps;
  const missing = await db
    .selectDistinct({ fileId: fileSections.fileId })
    .from(fileSections)
    .where(
      and(
        eq(fileSections.tenantId, tenantId),
        inArray(fileSections.fileId, fileIds),
        sql`not exists (select 1 from ${documentChunks} where ${documentChunks.fileId} = ${fileSections.fileId})`,
      ),
    );
  for (const { fileId } of missing) await indexFile(deps, fileId);
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

interface PassageRow {
  file_id: number;
  name: string;
  page: number | null;
  section: string | null;
  text: string;
}

/**
 * The passages of `fileIds` that best answer `question`, best first, fused by reciprocal rank from
 * up to four rankings of the files' passages:
 * - full-text search (English stemming and stop words; other scripts match whole words);
 * - coverage: the question's words (Korean stems, Chinese and Japanese character pairs) found in
 *   the passage, each weighted by how rare it is among these passages;
 * - trigram word similarity (pg_trgm) of the question's words, on the best candidates of the
 *   others: other forms of a word, particles and endings, typos;
 * - with embeddings configured, the cosine similarity of the vectors.
 * A passage must match in at least one of them.
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
  const termArray = sql`array[${sql.join(
    terms.map((term) => sql`${term}`),
    sql`, `,
  )}]::text[]`;
  const vectorScore =
    queryVector && embedder
      ? sql`case when c.embedding_model = ${embedder.model} then (select sum(a * b) from unnest(c.embedding, ${`{${queryVector.join(',')}}`}::real[]) as v(a, b)) end`
      : sql`null::float8`;
  const ids = sql.join(
    fileIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = rowsOf<PassageRow>(
    await db.execute(sql`
      with scoped as (
        select c.id, c.file_id, c.ordinal, f.name, c.page, c.section, c.text, lower(coalesce(c.section || ' ', '') || c.text) as body,
          ts_rank_cd(c.search_vector, websearch_to_tsquery('english', ${terms.join(' or ')})) as fts,
          ${vectorScore} as vec
        from ${documentChunks} c join ${files} f on f.id = c.file_id
        where c.tenant_id = ${tenantId} and c.file_id in (${ids})
      ),
      hits as (select s.id, t.term from scoped s cross join unnest(${termArray}) as t(term) where strpos(s.body, t.term) > 0),
      rarity as (select term, ln(1 + (select count(*) from scoped)::float8 / count(*)) as weight from hits group by term),
      coverage as (select h.id, sum(r.weight) as cover from hits h join rarity r using (term) group by h.id),
      ranked as (
        select s.*, coalesce(cv.cover, 0) as cover,
          rank() over (order by s.fts desc) as fts_rank,
          rank() over (order by coalesce(cv.cover, 0) desc) as cover_rank,
          rank() over (order by s.vec desc nulls last) as vec_rank
        from scoped s left join coverage cv using (id)
      ),
      candidates as (
        select r.*,
          (select coalesce(sum(sim), 0) from (select word_similarity(term, r.body) as sim from unnest(${termArray}) as term) as w where sim >= ${MIN_WORD_SIMILARITY}) as trgm
        from ranked r
        where (r.fts > 0 and r.fts_rank <= ${CANDIDATES}) or (r.cover > 0 and r.cover_rank <= ${CANDIDATES}) or (r.vec is not null and r.vec_rank <= ${CANDIDATES})
      ),
      fused as (
        select c.*,
          case when c.fts > 0 then 1.0 / (${RRF_K} + c.fts_rank) else 0 end
          + case when c.cover > 0 then 1.0 / (${RRF_K} + c.cover_rank) else 0 end
          + case when c.trgm > 0 then 1.0 / (${RRF_K} + rank() over (order by c.trgm desc)) else 0 end
          + case when c.vec is not null then 1.0 / (${RRF_K} + c.vec_rank) else 0 end as score
        from candidates c
      )
      select file_id, name, page, section, text from fused order by score desc, file_id, ordinal limit ${limit}`),
  );
  return rows.map((row) => ({
    fileId: Number(row.file_id),
    name: row.name,
    page: row.page === null ? null : Number(row.page),
    section: row.section,
    text: row.text,
    snippet: snippetOf(row.text, terms),
  }));
}
