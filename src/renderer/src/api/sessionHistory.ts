import type { InfiniteData } from '@tanstack/react-query';
import { sessionsApi, type SessionMessage } from '../../../shared/api';
import type { EndpointResponse } from '../../../shared/api/endpoint';
import { SESSION_HISTORY_PAGE_SIZE } from '../../../shared/domain/pagination';
import { callEndpoint } from './client';

type HistoryPage = EndpointResponse<typeof sessionsApi.getSessionHistory>;

/**
 * Shows a branch (PUT …/branch/) and loads it from the newest page the switch answers back through
 * the page holding the message `isTarget` finds (or to the first message), 20 at a time as the thread
 * pages: the history as the infinite query caches it (pages newest first, `first_id` cursors).
 */
export async function showBranchThrough(
  input: { params: { hash: string }; body: { message_id: number; position?: number } },
  isTarget: (message: SessionMessage) => boolean,
): Promise<InfiniteData<HistoryPage, number | undefined>> {
  const newest = await callEndpoint(sessionsApi.switchBranch, input);
  const data: InfiniteData<HistoryPage, number | undefined> = { pages: [newest], pageParams: [undefined] };
  for (let page = newest; !page.items.some(isTarget) && page.has_more;) {
    const firstId = page.items[0]?.id;
    if (firstId === undefined) break;
    page = await callEndpoint(sessionsApi.getSessionHistory, { params: input.params, query: { size: SESSION_HISTORY_PAGE_SIZE, first_id: firstId } });
    data.pages.push(page);
    data.pageParams.push(firstId);
  }
  return data;
}
