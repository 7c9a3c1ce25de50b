import { z } from 'zod';
import { RESTRICTED_WORDS_PAGE_SIZE, RESTRICTED_WORD_MAX_LENGTH } from '../../domain/restrictedWords';
import { idParamsSchema, isoDateTime, okSchema, pageQuerySchema, paginatedSchema } from '../common';
import { defineEndpoint } from '../endpoint';
import { isWellFormedText } from '../../domain/text';
import { piiSettingsSchema } from '../piiSettings';

export const restrictedWordSchema = z.object({ id: z.number().int(), word: z.string(), created_at: isoDateTime });
export type RestrictedWord = z.infer<typeof restrictedWordSchema>;

export const restrictedWordBodySchema = z.object({ word: z.string().trim().min(1).max(RESTRICTED_WORD_MAX_LENGTH).refine(isWellFormedText) });

export const listRestrictedWords = defineEndpoint({
  method: 'GET',
  path: '/admin/restricted-words/',
  access: 'admin',
  errors: {},
  query: pageQuerySchema(RESTRICTED_WORDS_PAGE_SIZE).extend({ search_term: z.string().trim().max(RESTRICTED_WORD_MAX_LENGTH).optional() }),
  response: paginatedSchema(restrictedWordSchema),
  summary: 'The tenant’s restricted words, newest first; `search_term` matches part of a word',
  tags: ['admin'],
});

export const createRestrictedWord = defineEndpoint({
  method: 'POST',
  path: '/admin/restricted-words/',
  access: 'admin',
  errors: { 409: ['conflict'] },
  body: restrictedWordBodySchema,
  response: restrictedWordSchema,
  summary: 'Add a restricted word; one that exists already (in any letter case) is refused with 409',
  tags: ['admin'],
});

export const deleteRestrictedWord = defineEndpoint({
  method: 'DELETE',
  path: '/admin/restricted-words/:id/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: okSchema,
  summary: 'Delete a restricted word',
  tags: ['admin'],
});

export const getAdminPiiSettings = defineEndpoint({
  method: 'GET',
  path: '/admin/pii-settings/',
  access: 'admin',
  errors: {},
  response: piiSettingsSchema,
  summary: 'Block, mask or allow (off) each kind of personal data in chat input',
  tags: ['admin'],
});

export const patchPiiSettings = defineEndpoint({
  method: 'PATCH',
  path: '/admin/pii-settings/',
  access: 'admin',
  errors: {},
  body: piiSettingsSchema.partial().strict(),
  response: piiSettingsSchema,
  summary: 'Change the action of some kinds of personal data; the others keep theirs',
  tags: ['admin'],
});
