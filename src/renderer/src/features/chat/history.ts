import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { sessionsApi, type ChatMeta, type SessionMessage } from '../../../../shared/api';
import type { z } from 'zod';
import { SESSION_HISTORY_PAGE_SIZE } from '../../../../shared/domain/pagination';
import { endpointPagesKey, useEndpointInfiniteQuery } from '../../api/endpointHooks';
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

export function useSessionHistory(hashId: string | undefined) {
  return useEndpointInfiniteQuery(sessionsApi.getSessionHistory, historyInput(hashId ?? ''), {
    pageQuery: (firstId: number | undefined) => ({ first_id: firstId }),
    initialPageParam: undefined,
    getNextPageParam: (page) => (page.has_more ? page.items[0]?.id : undefined),
    enabled: hashId !== undefined,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchInterval: (query) => (isBeingWritten(query.state.data) ? BEING_WRITTEN_REFETCH_MS : false),
  });
}

/** All loaded messages, oldest first. */
export function flattenHistory(data: InfiniteData<HistoryPage, unknown> | undefined): SessionMessage[] {
  if (!data) return [];
  return data.pages.toReversed().flatMap((page) => page.items);
}

/**
 * The loaded messages, oldest first, without the turn `runMeta` names: while it is on screen as the
 * streaming bubble, its stored copy is not listed twice.
 */
export function historyBesideRun(data: InfiniteData<HistoryPage, unknown> | undefined, runMeta: ChatMeta | null): SessionMessage[] {
  const all = flattenHistory(data);
  return runMeta ? all.filter((message) => message.id !== runMeta.member_message_id && message.id !== runMeta.chatbot_message_id) : all;
}

/** A session created by our own first message has no history to fetch yet. */
export function seedEmptyHistory(queryClient: QueryClient, hashId: string): void {
  const empty: HistoryData = { pages: [{ items: [], has_more: false, context_tokens: 0 }], pageParams: [undefined] };
  queryClient.setQueryData<HistoryData>(sessionHistoryKey(hashId), (old) => old ?? empty);
}

const NO_EXTRAS: Pick<SessionMessage, 'reasoning' | 'reasoning_ms' | 'citations' | 'streaming'> = { reasoning: null, reasoning_ms: null, citations: [], streaming: false };

/** How a streamed answer ended, in the history's terms. */
export function interruptedOf(snapshot: Pick<ChatRunSnapshot, 'status' | 'error'>): SessionMessage['interrupted'] {
  if (snapshot.status === 'stopped') return 'stopped';
  if (snapshot.status !== 'failed') return null;
  // Its server stopped streaming it: saved as interrupted (now, or by the sweep).
  return snapshot.error === 'chat:errors.answer_not_saved' || snapshot.error === 'chat:errors.server_shutting_down' ? 'interrupted' : 'failed';
}

/**
 * Appends a finished turn (the member's message and the answer as far as it got) to the cached
 * history, with the ids the server gave in the stream metadata, and updates the context size.
 */
export function appendTurn(queryClient: QueryClient, snapshot: ChatRunSnapshot): void {
  const meta = snapshot.meta;
  if (!meta) return;
  const now = new Date().toISOString();
  const turn: SessionMessage[] = [
    { ...NO_EXTRAS, id: meta.member_message_id, created_at: now, text: snapshot.memberText, speaker_type: 'member', files: [...snapshot.memberFiles], interrupted: null },
    {
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
    },
  ];
  seedEmptyHistory(queryClient, meta.session_hash_id);
  queryClient.setQueryData<HistoryData>(sessionHistoryKey(meta.session_hash_id), (old) => {
    if (!old) return old;
    const [newest, ...older] = old.pages;
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
