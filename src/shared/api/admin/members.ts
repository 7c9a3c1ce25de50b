import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idSchema } from '../common';

export const bulkPatchMembers = defineEndpoint({
  method: 'PATCH',
  path: '/admin/members/bulk/',
  access: 'admin',
  body: z.object({
    member_ids: z.array(idSchema).min(1).max(1000),
    /** Monthly credit limit overriding the group's per-member quota; null gives the group's back. */
    credit_quota: z.number().min(0).max(1e12).nullable(),
  }),
  response: z.object({ updated: z.number().int() }),
  summary: "Set the members' monthly credit limit",
  tags: ['admin'],
});
