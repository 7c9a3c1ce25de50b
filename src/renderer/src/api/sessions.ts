import { useInfiniteQuery, useQuery, type InfiniteData } from '@tanstack/react-query';
import { sessionsApi, type Paginated, type Session } from '../../../shared/api';
import { SESSION_HISTORY_PAGE_SIZE } from '../../../shared/domain/pagination';
import { callEndpoint } from './client';
import { queryKeys } from './queryKeys';

export type SessionPages = InfiniteData<Paginated<Session>, number>;

/** The member's sessions, 30 per page (the API default), next page loaded at the end of the list. */
export function useSessionsInfinite(enabled = true) {
  return useInfiniteQuery({
    queryKey: queryKeys.sessions,
    queryFn: ({ pageParam }) => callEndpoint(sessionsApi.listSessions, { query: { page: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page < last.total_pages ? last.page + 1 : undefined),
    enabled,
  });
}

export function useSession(hashId: string | undefined) {
  return useQuery({
    queryKey: queryKeys.session(hashId ?? ''),
    queryFn: () => callEndpoint(sessionsApi.getSession, { params: { hash: hashId ?? '' } }),
    enabled: hashId !== undefined,
  });
}

/** One page of a session's messages: the newest, or those before the `firstId` cursor. */
export function getSessionHistoryPage(hashId: string, firstId: number | undefined) {
  return callEndpoint(sessionsApi.getSessionHistory, { params: { hash: hashId }, query: { size: SESSION_HISTORY_PAGE_SIZE, first_id: firstId } });
}

export function generateSessionTitle(hashId: string) {
  return callEndpoint(sessionsApi.generateSessionTitle, { params: { hash: hashId } });
}

export function renameSession(hashId: string, title: string) {
  return callEndpoint(sessionsApi.patchSession, { params: { hash: hashId }, body: { title } });
}

export function deleteSession(hashId: string) {
  return callEndpoint(sessionsApi.deleteSession, { params: { hash: hashId } });
}

/** The session list without one session, keeping the page structure (for optimistic removal). */
export function withoutSession(data: SessionPages, hashId: string): SessionPages {
  return {
    ...data,
    pages: data.pages.map((page) => {
      const items = page.items.filter((session) => session.hash_id !== hashId);
      return { ...page, items, total_items: page.total_items - (page.items.length - items.length) };
    }),
  };
}
