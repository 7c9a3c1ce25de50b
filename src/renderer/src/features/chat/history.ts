import { useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { sessionsApi, type SessionMessage } from '../../../../shared/api';
import type { z } from 'zod';
import { getSessionHistoryPage } from '../../api/sessions';
import { queryKeys } from '../../api/queryKeys';
import type { ChatRunSnapshot } from './chatRun';
import { streamedImageFile } from './modes/imageFiles';
import { estimateTokens } from '../../../../shared/domain/tokens';

export type HistoryPage = z.infer<typeof sessionsApi.historyResponseSchema>;
/** Pages newest first; each page's items oldest first. The page param is the `first_id` cursor. */
export type HistoryData = InfiniteData<HistoryPage, number | undefined>;

/**
 * The session's messages, 20 at a time, older pages fetched with `first_id`. The cache is the
 * source of truth for finished turns (each streamed answer is appended to it), so it is never
 * refetched behind the user's back.
 */
export function useSessionHistory(hashId: string | undefined) {
  return useInfiniteQuery({
    queryKey: queryKeys.sessionHistory(hashId ?? ''),
    queryFn: ({ pageParam }) => getSessionHistoryPage(hashId ?? '', pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => (page.has_more ? page.items[0]?.id : undefined),
    enabled: hashId !== undefined,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

/** All loaded messages, oldest first. */
export function flattenHistory(data: InfiniteData<HistoryPage, unknown> | undefined): SessionMessage[] {
  if (!data) return [];
  return data.pages.toReversed().flatMap((page) => page.items);
}

/** A session created by our own first message has no history to fetch yet. */
export function seedEmptyHistory(queryClient: QueryClient, hashId: string): void {
  const empty: HistoryData = { pages: [{ items: [], has_more: false, context_tokens: 0 }], pageParams: [undefined] };
  queryClient.setQueryData<HistoryData>(queryKeys.sessionHistory(hashId), (old) => old ?? empty);
}

const NO_EXTRAS: Pick<SessionMessage, 'reasoning' | 'reasoning_ms' | 'citations'> = { reasoning: null, reasoning_ms: null, citations: [] };

/**
 * Appends a finished turn (the member's message and the answer as far as it got) to the cached
 * history, with the ids the server gave in the stream metadata, and updates the context size.
 */
export function appendTurn(queryClient: QueryClient, snapshot: ChatRunSnapshot): void {
  const meta = snapshot.meta;
  if (!meta) return;
  const now = new Date().toISOString();
  const turn: SessionMessage[] = [
    { ...NO_EXTRAS, id: meta.member_message_id, created_at: now, text: snapshot.memberText, speaker_type: 'member', files: [], interrupted: null },
    {
      id: meta.chatbot_message_id,
      created_at: now,
      text: snapshot.text,
      speaker_type: 'chatbot',
      files: snapshot.images.map(streamedImageFile),
      interrupted: snapshot.status === 'done' ? null : snapshot.status === 'stopped' ? 'stopped' : 'failed',
      reasoning: snapshot.thinking || null,
      reasoning_ms: snapshot.thinkingMs === null ? null : Math.round(snapshot.thinkingMs),
      citations: snapshot.citations,
    },
  ];
  seedEmptyHistory(queryClient, meta.session_hash_id);
  queryClient.setQueryData<HistoryData>(queryKeys.sessionHistory(meta.session_hash_id), (old) => {
    if (!old) return old;
    const [newest, ...older] = old.pages;
    if (!newest) return old;
    const known = new Set(newest.items.map((message) => message.id));
    const added = turn.filter((message) => !known.has(message.id));
    const contextTokens = snapshot.usage
      ? snapshot.usage.input_tokens + snapshot.usage.output_tokens
      : newest.context_tokens + estimateTokens(snapshot.memberText + snapshot.text);
    return { ...old, pages: [{ ...newest, items: [...newest.items, ...added], context_tokens: contextTokens }, ...older] };
  });
}
