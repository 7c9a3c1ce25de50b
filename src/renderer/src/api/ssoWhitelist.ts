import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminSsoWhitelistApi } from '../../../shared/api';
import { SSO_WHITELIST_BATCH, type SSO_WHITELIST_ORDERS } from '../../../shared/domain/ssoWhitelist';
import { callEndpoint, sendRaw } from './client';
import { queryKeys } from './queryKeys';

export type WhitelistOrder = (typeof SSO_WHITELIST_ORDERS)[number];

export function useSsoWhitelist(page: number, size: number, search: string, order: WhitelistOrder) {
  return useQuery({
    queryKey: queryKeys.ssoWhitelist(page, size, search, order),
    queryFn: () => callEndpoint(adminSsoWhitelistApi.listSsoWhitelist, { query: { page, size, order_by: order, ...(search ? { search_term: search } : {}) } }),
    placeholderData: keepPreviousData,
  });
}

/** Sends the emails in batches of SSO_WHITELIST_BATCH (spec §5: the whitelist works in batches) and adds up the answers. */
export async function upsertWhitelist(emails: string[], onProgress?: (done: number) => void) {
  const total = { added: 0, existing: 0, invalid: [] as string[] };
  for (let start = 0; start < emails.length; start += SSO_WHITELIST_BATCH) {
    const batch = emails.slice(start, start + SSO_WHITELIST_BATCH);
    const result = await callEndpoint(adminSsoWhitelistApi.bulkUpsertSsoWhitelist, { body: { sso_member_whitelist: batch } });
    total.added += result.added;
    total.existing += result.existing;
    total.invalid.push(...result.invalid);
    onProgress?.(start + batch.length);
  }
  return total;
}

export const deleteWhitelistEntries = (ids: number[]) => callEndpoint(adminSsoWhitelistApi.bulkDeleteSsoWhitelist, { body: { sso_member_whitelist_ids: ids } });

/** The whole list as the server's CSV file. */
export async function exportWhitelist(): Promise<Blob> {
  return (await sendRaw(adminSsoWhitelistApi.exportSsoWhitelist, adminSsoWhitelistApi.exportSsoWhitelist.path)).blob();
}
