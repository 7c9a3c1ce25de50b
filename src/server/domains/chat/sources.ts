import { and, eq } from 'drizzle-orm';
import type { Citation } from '../../../shared/api/chat';
import { estimateTokens } from '../../../shared/domain/tokens';
import type { LlmModelRow, SessionRow } from '../../db/rows';
import { chatbotDocuments, sessionMessageFiles, sessionMessages } from '../../db/schema';
import { AppError } from '../../errors';
import type { AppDeps } from '../../deps';
import { type Passage, searchPassages } from '../../retrieval';
import { SearchFailed, type SearchProvider, type WebResult, searchProviderFromConfig } from '../../search';
import { createTtlCache } from '../../ttlCache';

/** Passages given to the model per send; with their labels about 2,000 tokens. */
const PASSAGES_PER_SEND = 5;
const WEB_RESULTS_PER_SEND = 5;
/** Searched text: a long message is cut, search services want a query, not an essay. */
const WEB_QUERY_CHARS = 400;
/** How long a process reuses a chatbot's document list: a document added in the Studio through another process is searched within this. */
const DOCUMENTS_CACHE_MS = 5_000;

/** What a send's answer draws on besides the conversation: document passages and web results. */
export interface Sources {
  /** Added to the system instructions; empty when there is nothing. */
  context: string;
  /** In the order of the numbers the context gives them. */
  citations: Citation[];
  /** Tokens of web results given to the model (web-search credits are charged on them); null without web search. */
  webSearchTokens: number | null;
}

export const NO_SOURCES: Sources = { context: '', citations: [], webSearchTokens: null };

export interface SendScope {
  tenantId: number;
  chatbotId: number;
  existing: SessionRow | null;
  fileIds: number[];
  /** Attached files whose whole text goes with the message: their passages are cited, not repeated. */
  wholeFileIds: number[];
  text: string;
  webSearch: boolean;
}

const location = (passage: Passage) => [passage.page !== null ? `page ${passage.page}` : null, passage.section].filter(Boolean).join(', ');

function describe(passages: Passage[], results: WebResult[], wholeFileIds: number[] = []): string {
  const parts: string[] = [];
  let number = 0;
  if (passages.length > 0) {
    parts.push(
      'Passages from documents the member attached or this chatbot was given. Use them when they answer the question and cite them by number, like [1].',
      ...passages.map(
        (passage) =>
          `[${++number}] ${passage.name}${location(passage) ? ` (${location(passage)})` : ''}:\n${wholeFileIds.includes(passage.fileId) ? '(in the attached file above)' : passage.text}`,
      ),
    );
  }
  if (results.length > 0) {
    parts.push(
      'Web search results for the member’s message. Use them for current or outside facts and cite them by number, like [1].',
      ...results.map((result) => `[${++number}] ${result.title} <${result.url}>:\n${result.snippet}`),
    );
  }
  return parts.join('\n\n');
}

const documentCitation = (passage: Passage): Citation => ({
  kind: 'document',
  file_id: passage.fileId,
  name: passage.name,
  ...(passage.page !== null ? { page: passage.page } : {}),
  ...(passage.section ? { section: passage.section } : {}),
  snippet: passage.snippet,
});

/**
 * Retrieval and web search for chat (one per server): web search through the provider the
 * configuration names, none without. No query runs for a send whose chatbot has no documents
 * (cached per chatbot) and whose session never carried files.
 */
export function createSources(deps: Pick<AppDeps, 'db' | 'embedder' | 'config'>) {
  const { db } = deps;
  const search = searchProviderFromConfig(deps.config);
  const documents = createTtlCache<number, number[]>(DOCUMENTS_CACHE_MS);
  const chatbotFileIds = (tenantId: number, chatbotId: number) =>
    documents.get(chatbotId, async () =>
      (
        await db
          .select({ fileId: chatbotDocuments.fileId })
          .from(chatbotDocuments)
          .where(and(eq(chatbotDocuments.tenantId, tenantId), eq(chatbotDocuments.chatbotId, chatbotId)))
      ).flatMap((row) => (row.fileId === null ? [] : [row.fileId])),
    );
  const sessionFileIds = async (session: SessionRow) =>
    (
      await db
        .selectDistinct({ fileId: sessionMessageFiles.fileId })
        .from(sessionMessageFiles)
        .innerJoin(sessionMessages, eq(sessionMessages.id, sessionMessageFiles.messageId))
        .where(and(eq(sessionMessages.sessionId, session.id), eq(sessionMessageFiles.tenantId, session.tenantId)))
    ).map((row) => row.fileId);

  async function webResults(provider: SearchProvider, text: string): Promise<WebResult[]> {
    try {
      return await provider.search(text.slice(0, WEB_QUERY_CHARS), { limit: WEB_RESULTS_PER_SEND });
    } catch (error) {
      if (error instanceof SearchFailed) throw new AppError(424, 'web_search_failed', 'Web search failed. Try again, or send without web search.');
      throw error;
    }
  }

  return {
    webSearchAvailable: search !== undefined,

    /** A chatbot's documents changed (Studio): this process searches the new list from the next send. */
    forgetDocuments(chatbotId: number): void {
      documents.delete(chatbotId);
    },

    /** The sources of a send; 400 when web search is asked for but not configured, 424 when the search service fails. */
    async gather(scope: SendScope): Promise<Sources> {
      if (scope.webSearch && !search) throw new AppError(400, 'web_search_unavailable', 'Web search is not available on this server.');
      // A message of images alone has nothing to search for.
      const searching = scope.webSearch && scope.text !== '' ? search : undefined;
      const [documentIds, earlier] = await Promise.all([
        chatbotFileIds(scope.tenantId, scope.chatbotId),
        scope.existing?.hasFiles ? sessionFileIds(scope.existing) : [],
      ]);
      const fileIds = [...new Set([...scope.fileIds, ...documentIds, ...earlier])];
      const [passages, results] = await Promise.all([
        fileIds.length > 0 ? searchPassages(deps, { tenantId: scope.tenantId, fileIds, question: scope.text, limit: PASSAGES_PER_SEND }) : [],
        searching ? webResults(searching, scope.text) : [],
      ]);
      const webContext = describe([], results);
      return {
        context: describe(passages, results, scope.wholeFileIds),
        citations: [
          ...passages.map(documentCitation),
          ...results.map((result): Citation => ({ kind: 'web', url: result.url, title: result.title, snippet: result.snippet })),
        ],
        webSearchTokens: searching ? estimateTokens(webContext) : null,
      };
    },
  };
}

export type SourcesService = ReturnType<typeof createSources>;

/** Web-search credits of a send: credits per 10K tokens of search results given to the model (llm_models.web_search_cost_per_10k). */
export function webSearchCredits(model: LlmModelRow, sources: Sources): number {
  return sources.webSearchTokens === null ? 0 : (sources.webSearchTokens / 10_000) * model.webSearchCostPer10k;
}
