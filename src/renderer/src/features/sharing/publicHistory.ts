import { publicSessionsApi } from '../../../../shared/api';
import { SESSION_HISTORY_PAGE_SIZE } from '../../../../shared/domain/pagination';
import { endpointPagesKey, useEndpointInfiniteQuery } from '../../api/endpointHooks';

const historyInput = (hashId: string) => ({ params: { hash: hashId }, query: { size: SESSION_HISTORY_PAGE_SIZE } });

/** Where a shared session's messages are cached: a visitor's new session is seeded there. */
export const publicHistoryKey = (hashId: string) => endpointPagesKey(publicSessionsApi.getPublicSessionHistory, historyInput(hashId));

/** A shared session's messages, 20 at a time (same pages as the member's history). */
export function usePublicSessionHistory(hashId: string, enabled = true) {
  return useEndpointInfiniteQuery(publicSessionsApi.getPublicSessionHistory, historyInput(hashId), {
    enabled,
    pageQuery: (firstId: number | undefined) => ({ first_id: firstId }),
    initialPageParam: undefined,
    getNextPageParam: (page) => (page.has_more ? page.items[0]?.id : undefined),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}
