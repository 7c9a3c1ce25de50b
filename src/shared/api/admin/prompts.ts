import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idParamsSchema, okSchema, pageQuerySchema, paginatedSchema } from '../common';
import { promptBodySchema, promptPatchSchema, promptSchema } from '../prompts';
import { DEFAULT_LIST_PAGE_SIZE } from '../../domain/pagination';

export const adminPromptListQuerySchema = pageQuerySchema(DEFAULT_LIST_PAGE_SIZE).extend({
  search_term: z.string().trim().max(200).optional(),
});

export const listAdminPrompts = defineEndpoint({
  method: 'GET',
  path: '/admin/prompts/',
  access: 'admin',
  errors: {},
  query: adminPromptListQuerySchema,
  response: paginatedSchema(promptSchema),
  summary: "The tenant's prompts (every member can insert them), by name; search_term matches the name or the text",
  tags: ['admin'],
});

export const createAdminPrompt = defineEndpoint({
  method: 'POST',
  path: '/admin/prompts/',
  access: 'admin',
  errors: { 409: ['prompt_name_taken'], 422: ['prompt_limit_reached'] },
  body: promptBodySchema,
  response: promptSchema,
  summary: "Add a tenant prompt (the same rules as a member's; 409 when another tenant prompt has the name, letter case ignored; 422 past the tenant's limit)",
  tags: ['admin'],
});

export const patchAdminPrompt = defineEndpoint({
  method: 'PATCH',
  path: '/admin/prompts/:id/',
  access: 'admin',
  errors: { 404: ['not_found'], 409: ['prompt_name_taken'] },
  params: idParamsSchema,
  body: promptPatchSchema,
  response: promptSchema,
  summary: 'Edit a tenant prompt (404 for a personal prompt: those are their owner’s alone)',
  tags: ['admin'],
});

export const deleteAdminPrompt = defineEndpoint({
  method: 'DELETE',
  path: '/admin/prompts/:id/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: okSchema,
  summary: 'Delete a tenant prompt',
  tags: ['admin'],
});
