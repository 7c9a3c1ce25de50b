import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { NEW_MEMBER_ERRORS } from './signup';
import { idSchema, languageSchema } from './common';
import { EMAIL_MAX_EXCLUSIVE } from '../domain/account';
import { NAME_MAX } from '../domain/signup';

/** The invitation's hash in a path: url-safe random text (the invitation mail's link). */
const hashParamsSchema = z.object({ hash: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/) });

/** What the accept page shows before the invitee types anything. */
export const invitationSchema = z.object({
  tenant_name: z.string(),
  email: z.string(),
  name: z.string().nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const verifyInvitation = defineEndpoint({
  method: 'GET',
  path: '/invitations/:hash/verify/',
  access: 'public',
  errors: { 404: ['invitation_not_found'] },
  params: hashParamsSchema,
  response: invitationSchema,
  summary: 'A pending invitation: tenant, email and name (404 invitation_not_found when unknown or already used)',
  tags: ['invitations'],
});

/** Spec §3 accept payload {email, name, password, agreements}, plus the temporary password of the mail (spec §5). */
export const acceptInvitationBodySchema = z.object({
  email: z.string().trim().min(1).max(EMAIL_MAX_EXCLUSIVE),
  name: z.string().max(NAME_MAX * 2),
  password: z.string().min(1).max(1024),
  agreements: z.array(idSchema).max(100).default([]),
  temporary_password: z.string().min(1).max(200),
  /** The member's language from now on (the page's). */
  language: languageSchema.default('en'),
});
export type AcceptInvitationBody = z.input<typeof acceptInvitationBodySchema>;

/**
 * No tokens: the invitee is an approved member at once (spec §4) and the client signs in with the
 * password just chosen, through the one sign-in path web and desktop have.
 */
export const acceptInvitation = defineEndpoint({
  method: 'POST',
  path: '/invitations/:hash/accept/',
  access: 'public',
  errors: {
    401: ['wrong_temporary_password'],
    ...NEW_MEMBER_ERRORS,
    404: ['invitation_not_found'],
  },
  params: hashParamsSchema,
  body: acceptInvitationBodySchema,
  response: z.object({ member_id: z.number().int(), tenant_name: z.string() }),
  summary: 'Join with the temporary password of the invitation mail and one’s own password (401 wrong temporary password)',
  tags: ['invitations'],
});
