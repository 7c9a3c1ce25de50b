import type { z } from 'zod';
import { adminInvitationsApi } from '../../../shared/api';
import type { EndpointResponse } from '../../../shared/api/endpoint';
import { INVITATION_BATCH_SIZE } from '../../../shared/domain/invitations';
import { callEndpoint } from './client';

export type InviteRow = z.input<NonNullable<typeof adminInvitationsApi.bulkInvite.body>>['members'][number];

type InviteResult = EndpointResponse<typeof adminInvitationsApi.bulkInvite>['results'][number];

/**
 * Sends the rows in batches of INVITATION_BATCH_SIZE (spec §4 bulk upload, §5 "Bulk invite works in
 * batches"), reporting the rows done after each. A batch the server refuses (402 the plan's cap)
 * stops the rest: the rows answered so far come back with the error, which nothing undoes.
 */
export async function inviteInBatches(rows: InviteRow[], onProgress: (done: number) => void): Promise<{ results: InviteResult[]; error: unknown }> {
  const results: InviteResult[] = [];
  for (let start = 0; start < rows.length; start += INVITATION_BATCH_SIZE) {
    try {
      results.push(...(await callEndpoint(adminInvitationsApi.bulkInvite, { body: { members: rows.slice(start, start + INVITATION_BATCH_SIZE) } })).results);
    } catch (error) {
      return { results, error };
    }
    onProgress(results.length);
  }
  return { results, error: null };
}
