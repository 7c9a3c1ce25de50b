import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idSchema, pageQuerySchema, paginatedSchema } from '../common';
import { EMAIL_MAX_EXCLUSIVE } from '../../domain/account';
import { NAME_MAX } from '../../domain/signup';
import { INVITATION_REQUEST_MAX } from '../../domain/invitations';
import { DEFAULT_LIST_PAGE_SIZE } from '../../domain/pagination';

export const adminInvitationSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  member_group_id: z.number().int().nullable(),
  status: z.enum(['pending', 'accepted']),
  invited_by: z.string().nullable(),
  created_at: z.string(),
});
export type AdminInvitation = z.infer<typeof adminInvitationSchema>;

export const listAdminInvitations = defineEndpoint({
  method: 'GET',
  path: '/admin/invitations/',
  access: 'admin',
  errors: {},
  query: pageQuerySchema(DEFAULT_LIST_PAGE_SIZE).extend({
    search_term: z.string().trim().max(200).optional(),
    order_by: z.enum(['created_at', 'email', 'name', 'status']).default('created_at'),
    order_type: z.enum(['asc', 'desc']).default('desc'),
  }),
  response: paginatedSchema(adminInvitationSchema),
  summary: "The tenant's invitations (spec §7: page, size, search_term, order_by, order_type)",
  tags: ['admin'],
});

/** Row-level outcomes of spec §8 "Row-level upload errors", plus `invited`. */
export const INVITATION_ROW_RESULTS = [
  'invited',
  'invalid_email',
  'already_exists',
  'already_invited',
  'already_requested',
  'invitation_email_failed',
] as const;

export const bulkInvite = defineEndpoint({
  method: 'POST',
  path: '/admin/invitations/bulk/',
  access: 'admin',
  errors: { 402: ['invitation_limit_reached'] },
  body: z.object({
    members: z
      .array(
        z.object({
          email: z
            .string()
            .trim()
            .max(EMAIL_MAX_EXCLUSIVE * 2),
          name: z.string().trim().max(NAME_MAX).optional(),
          member_group_id: idSchema.optional(),
        }),
      )
      .min(1)
      .max(INVITATION_REQUEST_MAX),
  }),
  response: z.object({
    results: z.array(z.object({ email: z.string(), result: z.enum(INVITATION_ROW_RESULTS), invitation_id: z.number().int().nullable() })),
  }),
  summary: 'Invite members by email, each with a temporary password by mail; row-level results; 402 over the plan’s invitation limit',
  tags: ['admin'],
});

export const bulkDeleteInvitations = defineEndpoint({
  method: 'POST',
  path: '/admin/invitations/bulk/delete/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  body: z.object({ invitation_ids: z.array(idSchema).min(1).max(500) }),
  response: z.object({ deleted: z.number().int() }),
  summary: 'Delete invitations (404 when none of them exists)',
  tags: ['admin'],
});
