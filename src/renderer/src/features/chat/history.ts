import { useCallback } from 'react';
import { type InfiniteData, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { sessionsApi, type AnswerFeedback, type ChatMeta, type SessionMessage } from '../../../../shared/api';
import type { z } from 'zod';
import { SESSION_HISTORY_PAGE_SIZE } from '../../../../shared/domain/pagination';
import { showBranchThrough } from '../../api/sessionHistory';
import { endpointPagesKey, useEndpointInfiniteQuery, useEndpointMutation } from '../../api/endpointHooks';
import type { ChatRunSnapshot } from './chatRun';
import { streamedImageFile } from './modes/imageFiles';
import { estimateTokens } from '../../../../shared/domain/tokens';

export type HistoryPage = z.infer<typeof sessionsApi.historyResponseSchema>;
/** Pages newest first; each page's items oldest first. The page param is the `first_id` cursor. */
export type HistoryData = InfiniteData<HistoryPage, number | undefined>;

/**
 * How often a history showing an answer still being written (on another device, or by a stream
 * this page lost) is fetched again: until it is finished or, its server gone, saved as interrupted
 * by the server's sweep, within half a minute.
 */
const BEING_WRITTEN_REFETCH_MS = 3_000;

const isBeingWritten = (data: InfiniteData<HistoryPage, unknown> | undefined) => data?.pages[0]?.items.some((message) => message.streaming) ?? false;

/**
 * The session's messages, 20 at a time, older pages fetched with `first_id`. The cache is the
 * source of truth for finished turns (each streamed answer is appended to it), so it is never
 * refetched behind the user's back, except while an answer in it is still being written.
 */
const historyInput = (hashId: string) => ({ params: { hash: hashId }, query: { size: SESSION_HISTORY_PAGE_SIZE } });

/** Where a session's messages are cached: the stream writes each finished turn there. */
export const sessionHistoryKey = (hashId: string) => endpointPagesKey(sessionsApi.getSessionHistory, historyInput(hashId));

/** `enabled` false: the cache is being filled another way (useShowBranch opening a search result). */
export function useSessionHistory(hashId: string | undefined, enabled = true) {
  return useEndpointInfiniteQuery(sessionsApi.getSessionHistory, historyInput(hashId ?? ''), {
    pageQuery: (firstId: number | undefined) => ({ first_id: firstId }),
    initialPageParam: undefined,
    getNextPageParam: (page) => (page.has_more ? page.items[0]?.id : undefined),
    enabled: hashId !== undefined && enabled,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchInterval: (query) => (isBeingWritten(query.state.data) ? BEING_WRITTEN_REFETCH_MS : false),
  });
}

/** A branch to show: the switch's params and body, and the message the screen is to stay at. */
export interface ShownBranch {
  params: { hash: string };
  /** `position`: another version of the message; none: the branch through it (a search result). */
  body: { message_id: number; position?: number };
  /** The message to show once the branch is loaded: the version switched to, or the search result. */
  isTarget: (message: SessionMessage) => boolean;
}

/**
 * Shows another version of a message, or the branch through a search result's message (the server
 * remembers it as the active branch), and loads that branch from its newest page back to the target,
 * so the screen stays at the point the member was at rather than jumping to the bottom. The pages
 * replace the cached history at once, after the last one arrived: until then the screen shows what
 * it showed (docs/decisions/0081-chat-branches.md).
 */
export function useShowBranch({ onShown, errorToast = true }: { onShown?: (data: HistoryData, shown: ShownBranch) => void; errorToast?: boolean } = {}) {
  const queryClient = useQueryClient();
  return useEndpointMutation<typeof sessionsApi.switchBranch, ShownBranch, HistoryData>(sessionsApi.switchBranch, {
    errorToast,
    send: ({ params, body, isTarget }) => showBranchThrough({ params, body }, isTarget),
    onSuccess: (data, shown) => {
      queryClient.setQueryData<HistoryData>(sessionHistoryKey(shown.params.hash), data);
      onShown?.(data, shown);
    },
  });
}

/** All loaded messages, oldest first. */
export function flattenHistory(data: InfiniteData<HistoryPage, unknown> | undefined): SessionMessage[] {
  if (!data) return [];
  return data.pages.toReversed().flatMap((page) => page.items);
}

/**
 * The loaded messages, oldest first, without the turn `runMeta` names: while it is on screen as the
 * streaming bubble, its stored copy is not listed twice. A regeneration or an edit (`replacesFrom`:
 * the question it answers again or replaces) shows the branch only up to before that question.
 */
export function historyBesideRun(
  data: InfiniteData<HistoryPage, unknown> | undefined,
  runMeta: ChatMeta | null,
  replacesFrom: number | null = null,
): SessionMessage[] {
  const all = flattenHistory(data);
  // Along a branch ids grow: everything from the replaced question on is what the run replaces.
  const kept = replacesFrom === null ? all : all.filter((message) => message.id < replacesFrom);
  return runMeta ? kept.filter((message) => message.id !== runMeta.member_message_id && message.id !== runMeta.chatbot_message_id) : kept;
}

/** What a history query (the member's, or a shared session's) tells of its older pages. */
interface OlderPagesQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<{ isFetchNextPageError: boolean; error: unknown }>;
}

/**
 * MessageList's older-pages props from a history query. `listed` false: the list does not show this
 * history (a fresh chat), so there is nothing older to load; `onError` hears of a page that failed.
 */
export function useOlderPages(history: OlderPagesQuery, { listed = true, onError }: { listed?: boolean; onError?: (error: unknown) => void } = {}) {
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;
  const onLoadOlder = useCallback(() => {
    void fetchNextPage().then((result) => {
      if (result.isFetchNextPageError) onError?.(result.error);
    });
  }, [fetchNextPage, onError]);
  return { hasOlder: listed && hasNextPage, loadingOlder: isFetchingNextPage, onLoadOlder };
}

/** A session created by our own first message has no history to fetch yet. */
export function seedEmptyHistory(queryClient: QueryClient, hashId: string): void {
  const empty: HistoryData = { pages: [{ items: [], has_more: false, context_tokens: 0 }], pageParams: [undefined] };
  queryClient.setQueryData<HistoryData>(sessionHistoryKey(hashId), (old) => old ?? empty);
}

const NO_EXTRAS: Pick<
  SessionMessage,
  'reasoning' | 'reasoning_ms' | 'citations' | 'tool_calls' | 'streaming' | 'feedback' | 'imported' | 'sibling_count' | 'sibling_position'
> = {
  reasoning: null,
  reasoning_ms: null,
  citations: [],
  tool_calls: [],
  streaming: false,
  feedback: null,
  imported: null,
  sibling_count: 1,
  sibling_position: 1,
};

/** How a streamed answer ended, in the history's terms. */
export function interruptedOf(snapshot: Pick<ChatRunSnapshot, 'status' | 'error'>): SessionMessage['interrupted'] {
  if (snapshot.status === 'stopped') return 'stopped';
  if (snapshot.status !== 'failed') return null;
  // Its server stopped streaming it: saved as interrupted (now, or by the sweep).
  return snapshot.error === 'chat:errors.answer_not_saved' || snapshot.error === 'chat:errors.server_shutting_down' ? 'interrupted' : 'failed';
}

/** A new version of a point with `versions` before it: the newest, so the last. */
const newestOf = (versions: number) => ({ sibling_count: versions + 1, sibling_position: versions + 1 });

/**
 * Appends a finished turn (the member's message and the answer as far as it got) to the cached
 * history, with the ids the server gave in the stream metadata, and updates the context size. A
 * regeneration or an edit (`replacesFrom`) first cuts the cached branch before the question it
 * answers again or replaces; the turn is then that point's newest version.
 */
export function appendTurn(queryClient: QueryClient, snapshot: ChatRunSnapshot, replacesFrom: number | null = null): void {
  const meta = snapshot.meta;
  if (!meta) return;
  const now = new Date().toISOString();
  const cached = flattenHistory(queryClient.getQueryData<HistoryData>(sessionHistoryKey(meta.session_hash_id)));
  const replaced = replacesFrom === null ? undefined : cached.find((message) => message.id === replacesFrom);
  const regenerated = replaced !== undefined && meta.member_message_id === replaced.id;
  const oldAnswer = regenerated ? cached.find((message) => message.parent_id === replaced.id) : undefined;
  const member: SessionMessage = regenerated
    ? replaced
    : {
        ...NO_EXTRAS,
        id: meta.member_message_id,
        created_at: now,
        text: snapshot.memberText,
        speaker_type: 'member',
        files: [...snapshot.memberFiles],
        interrupted: null,
        parent_id: replaced ? replaced.parent_id : (cached.at(-1)?.id ?? null),
        ...(replaced ? newestOf(replaced.sibling_count) : {}),
      };
  const answer: SessionMessage = {
    id: meta.chatbot_message_id,
    created_at: now,
    text: snapshot.text,
    speaker_type: 'chatbot',
    files: snapshot.images.map(streamedImageFile),
    interrupted: interruptedOf(snapshot),
    streaming: false,
    reasoning: snapshot.thinking || null,
    reasoning_ms: snapshot.thinkingMs === null ? null : Math.round(snapshot.thinkingMs),
    citations: snapshot.citations,
    tool_calls: snapshot.toolCalls,
    feedback: null,
    imported: null,
    parent_id: meta.member_message_id,
    ...newestOf(oldAnswer?.sibling_count ?? 0),
  };
  const turn = [member, answer];
  seedEmptyHistory(queryClient, meta.session_hash_id);
  queryClient.setQueryData<HistoryData>(sessionHistoryKey(meta.session_hash_id), (old) => {
    if (!old) return old;
    const pages = replacesFrom === null ? old.pages : old.pages.map((page) => ({ ...page, items: page.items.filter((message) => message.id < replacesFrom) }));
    const [newest, ...older] = pages;
    if (!newest) return old;
    // A refetch during the stream may hold the turn already, its answer as it was being written: the
    // stream's answer replaces that one; the member's message as stored (with its files) stays.
    const kept = newest.items.filter((message) => message.id !== meta.chatbot_message_id);
    const known = new Set(kept.map((message) => message.id));
    const added = turn.filter((message) => !known.has(message.id));
    const contextTokens = snapshot.usage
      ? snapshot.usage.input_tokens + snapshot.usage.output_tokens
      : newest.context_tokens + estimateTokens(snapshot.memberText + snapshot.text);
    return { ...old, pages: [{ ...newest, items: [...kept, ...added], context_tokens: contextTokens }, ...older] };
  });
}

/** The member's rating of an answer as the server saved it (null: taken back), in the cached history. */
export function setMessageFeedback(queryClient: QueryClient, hashId: string, messageId: number, feedback: AnswerFeedback | null): void {
  queryClient.setQueryData<HistoryData>(sessionHistoryKey(hashId), (old) =>
    old
      ? {
          ...old,
          pages: old.pages.map((page) =>
            page.items.some((message) => message.id === messageId)
              ? { ...page, items: page.items.map((message) => (message.id === messageId ? { ...message, feedback } : message)) }
              : page,
          ),
        }
      : old,
  );
}
