import { adminSsoWhitelistApi } from '../../../shared/api';
import { SSO_WHITELIST_BATCH } from '../../../shared/domain/ssoWhitelist';
import { callEndpoint } from './client';

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
