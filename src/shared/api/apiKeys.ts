import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idParamsSchema, idSchema, isoDateTime, pageQuerySchema, paginatedSchema } from './common';
import { API_KEY_CHATBOTS_MAX, API_KEY_NAME_MAX, API_KEYS_PAGE_SIZE } from '../domain/apiKeys';

export const API_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

/** A key as its owner sees it in the list: never the secret, only its visible prefix. */
export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The first characters of the key, e.g. `cbp_live_AbC123`, to recognise it. */
  key_prefix: z.string(),
  chatbots: z.array(z.object({ id: z.number().int(), hash_id: z.string(), ko_name: z.string(), en_name: z.string() })),
  status: z.enum(API_KEY_STATUSES),
  created_at: isoDateTime,
  last_used_at: isoDateTime.nullable(),
  expires_at: isoDateTime.nullable(),
  revoked_at: isoDateTime.nullable(),
  /** Usage of the current calendar month (UTC), from the usage rows the key's calls recorded. */
  requests_this_month: z.number().int(),
  credits_this_month: z.number(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListQuerySchema = pageQuerySchema(API_KEYS_PAGE_SIZE).extend({
  search_term: z.string().trim().max(200).optional(),
  /** `active`: usable now; `revoked`: revoked or expired; absent: all. */
  status: z.enum(['active', 'revoked']).optional(),
});

const expiresAtSchema = z.iso.datetime({ offset: true }).nullable().describe('ISO 8601 date-time after which the key stops working; null never expires');
const chatbotIdsSchema = z.array(idSchema).min(1).max(API_KEY_CHATBOTS_MAX);
const nameSchema = z.string().trim().min(1).max(API_KEY_NAME_MAX);

export const createApiKeyBodySchema = z.object({ name: nameSchema, expires_at: expiresAtSchema.optional(), chatbot_ids: chatbotIdsSchema }).strict();
export type CreateApiKeyBody = z.input<typeof createApiKeyBodySchema>;

export const updateApiKeyBodySchema = z
  .object({ name: nameSchema.optional(), expires_at: expiresAtSchema.optional(), chatbot_ids: chatbotIdsSchema.optional() })
  .strict();
export type UpdateApiKeyBody = z.input<typeof updateApiKeyBodySchema>;

/** The creation answer is the only time the key itself is sent. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const listApiKeys = defineEndpoint({
  method: 'GET',
  path: '/apikeys/',
  access: 'member',
  errors: {},
  query: apiKeyListQuerySchema,
  response: paginatedSchema(apiKeySchema),
  summary: "The signed-in member's API keys, newest first, with this month's usage per key",
  tags: ['apikeys'],
});

export const createApiKey = defineEndpoint({
  method: 'POST',
  path: '/apikeys/',
  access: 'member',
  errors: { 404: ['not_found'] },
  body: createApiKeyBodySchema,
  response: createdApiKeySchema,
  summary: 'Create an API key for chatbots the member can see; the key is in this answer only (404 a chatbot they cannot see)',
  tags: ['apikeys'],
});

export const updateApiKey = defineEndpoint({
  method: 'PATCH',
  path: '/apikeys/:id/',
  access: 'member',
  errors: { 404: ['not_found'], 409: ['conflict'], 422: ['api_key_expired'] },
  params: idParamsSchema,
  body: updateApiKeyBodySchema,
  response: apiKeySchema,
  summary: "Rename a key, change its chatbots or its expiry (404 another member's key; 409 a revoked key)",
  tags: ['apikeys'],
});

export const revokeApiKey = defineEndpoint({
  method: 'DELETE',
  path: '/apikeys/:id/',
  access: 'member',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: apiKeySchema,
  summary: 'Revoke a key at once: every later call with it is refused (401)',
  tags: ['apikeys'],
});
