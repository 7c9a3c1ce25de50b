import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idTextSchema } from '../common';
import { llmModelSchema } from '../llmModels';

/** A model as the admin's permission matrix shows it: the model, and the groups that may use it. */
export const adminLlmModelSchema = llmModelSchema.extend({
  provider: z.string(),
  /** Offered in the Studio (the operator's flag). */
  chatbot_allowed: z.boolean(),
  /** Groups whose members may use it; every group for the unlimited model, which cannot be switched off. */
  available_group_ids: z.array(z.number().int()),
});
export type AdminLlmModel = z.infer<typeof adminLlmModelSchema>;

export const permissionGroupSchema = z.object({ id: z.number().int(), ko_name: z.string(), en_name: z.string(), is_default: z.boolean() });

export const listAdminLlmModels = defineEndpoint({
  method: 'GET',
  path: '/admin/llm-models/',
  access: 'admin',
  errors: {},
  response: z.object({ models: z.array(adminLlmModelSchema), groups: z.array(permissionGroupSchema) }),
  summary: "The tenant's models × member groups: which group may use which model",
  tags: ['admin'],
});

export const setModelGroupPermission = defineEndpoint({
  method: 'PATCH',
  path: '/admin/llm-models/:modelId/member-groups/:groupId/',
  access: 'admin',
  errors: { 404: ['not_found'], 422: ['model_locked'] },
  params: z.object({ modelId: idTextSchema, groupId: idTextSchema }),
  body: z.object({ is_available: z.boolean() }).strict(),
  response: z.object({ model_id: z.number().int(), member_group_id: z.number().int(), is_available: z.boolean() }),
  summary: 'Allow or forbid a model to a member group (at once for every chat). 404 unknown model or group, 422 switching off the unlimited model',
  tags: ['admin'],
});
