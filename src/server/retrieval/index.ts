import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { documentChunks, fileSections, files } from '../db/schema';
import { chunkSections, queryTerms, snippetOf } from './chunking';
import { embedderOf } from './embeddings';

export { setEmbedder, embedderFromConfig, type Embedder } from './embeddings';

/** Rows per insert statement, well under PostgreSQL's 65,535 bind parameters. */
const INSERT_BATCH = 500;

/**
 * (Re)builds the passages of a file from its parsed sections (file_sections), with embeddings when
 * the server has EMBEDDING_* settings. Idempotent: the file's old passages are replaced, so the
 * parse job calls it after every parse, for chat files and chatbot documents alike. An embedding
 * failure leaves the passages without vectors (text ranking still finds them). Returns how many.
 */
export async function indexFile(db: Database, fileId: number): Promise<number> {
  const [file] = await db.select({ tenantId: files.tenantId }).from(files).where(eq(files.id, fileId));
  if (!file) return 0;
  const sections = await db
    .select({ page: fileSections.page, heading: fileSections.heading, text: fileSections.text })
    .from(fileSections)
    .where(eq(fileSections.fileId, fileId))
    .orderBy(asc(fileSections.ordinal));
  const chunks = chunkSections(sections);
  const embedder = embedderOf(db);
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
async function indexMissing(db: Database, tenantId: number, fileIds: number[]): Promise<void> {
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
  for (const { fileId } of missing) await indexFile(db, fileId);
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
/** Trigram word similarity from which a question word counts as present in a passage (another form of it, or it with a particle). */
const MIN_WORD_SIMILARITY = 0.5;

/**
 * The passages of `fileIds` that best answer `question`, best first. Three rankings over the
 * files' passages are fused by reciprocal rank: full-text search (English stemming; other
 * scripts match whole words), the summed trigram word similarity of the question words present
 * (finds Korean and other words with particles or endings attached) and, when embeddings are configured, the
 * cosine similarity of the vectors. A passage must match in at least one of them.
 */
export async function searchPassages(
  db: Database,
  { tenantId, fileIds, question, limit = 5 }: { tenantId: number; fileIds: number[]; question: string; limit?: number },
): Promise<Passage[]> {
  const terms = queryTerms(question);
  if (fileIds.length === 0 || terms.length === 0) return [];
  await indexMissing(db, tenantId, fileIds);

  const embedder = embedderOf(db);
  const [queryVector] = embedder ? await embedder.embed([question]).catch(() => [] as number[][]) : [];
  const termArray = sql`array[${sql.join(
    terms.map((term) => sql`${term}`),
    sql`, `,
  )}]::text[]`;
  const body = sql`coalesce(${documentChunks.section} || ' ', '') || ${documentChunks.text}`;
  const vectorScore =
    queryVector && embedder
      ? sql`case when ${documentChunks.embeddingModel} = ${embedder.model} then (select sum(a * b) from unnest(${documentChunks.embedding}, ${`{${queryVector.join(',')}}`}::real[]) as v(a, b)) end`
      : sql`null::real`;

  const scored = db.$with('scored').as(
    db
      .select({
        fileId: documentChunks.fileId,
        ordinal: documentChunks.ordinal,
        name: files.name,
        page: documentChunks.page,
        section: documentChunks.section,
        text: documentChunks.text,
        fts: sql<number>`ts_rank_cd(to_tsvector('english', ${body}), websearch_to_tsquery('english', ${terms.join(' or ')}))`.as('fts'),
        trgm: sql<number>`(select coalesce(sum(s), 0) from (select word_similarity(term, ${body}) as s from unnest(${termArray}) as term) as similarity where s >= ${MIN_WORD_SIMILARITY})`.as('trgm'),
        vec: sql<number | null>`${vectorScore}`.as('vec'),
      })
      .from(documentChunks)
      .innerJoin(files, eq(files.id, documentChunks.fileId))
      .where(and(eq(documentChunks.tenantId, tenantId), inArray(documentChunks.fileId, fileIds))),
  );
  const fused = db.$with('fused').as(
    db
      .with(scored)
      .select({
        fileId: scored.fileId,
        ordinal: scored.ordinal,
        name: scored.name,
        page: scored.page,
        section: scored.section,
        text: scored.text,
        score: sql<number>`(
          case when ${scored.fts} > 0 then 1.0 / (${RRF_K} + rank() over (order by ${scored.fts} desc)) else 0 end
          + case when ${scored.trgm} > 0 then 1.0 / (${RRF_K} + rank() over (order by ${scored.trgm} desc)) else 0 end
          + case when ${scored.vec} is not null then 1.0 / (${RRF_K} + rank() over (order by ${scored.vec} desc nulls last)) else 0 end
        )::float8`.as('score'),
      })
      .from(scored),
  );
  const rows = await db
    .with(fused)
    .select()
    .from(fused)
    .where(sql`${fused.score} > 0`)
    .orderBy(desc(fused.score), asc(fused.fileId), asc(fused.ordinal))
    .limit(limit);
  return rows.map((row) => ({
    fileId: row.fileId,
    name: row.name,
    page: row.page,
    section: row.section,
    text: row.text,
    snippet: snippetOf(row.text, terms),
  }));
}
