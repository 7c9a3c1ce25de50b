import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idParamsSchema, isoDateTime, okSchema } from './common';
import { isWellFormedText } from '../domain/text';
import { PROMPT_NAME_MAX, PROMPT_SCOPES, PROMPT_TEXT_MAX, PROMPT_VARIABLES_MAX, PROMPT_VARIABLE_NAME_MAX, promptTextProblem } from '../domain/prompts';

/** A saved prompt (issue 23): tenant-wide (an admin's) or the member's own. */
export const promptSchema = z.object({
  id: z.number().int(),
  scope: z.enum(PROMPT_SCOPES),
  name: z.string(),
  text: z.string(),
  /** The distinct `{{variable}}` names of the text, in order of first use. */
  variables: z.array(z.string()),
  created_at: isoDateTime,
  updated_at: isoDateTime,
});
export type Prompt = z.infer<typeof promptSchema>;

const promptNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(PROMPT_NAME_MAX)
  .refine(isWellFormedText)
  .refine((name) => !/[\r\n]/.test(name), { message: 'prompts:validation.name_one_line' });

const promptTextSchema = z
  .string()
  .trim()
  .min(1)
  .max(PROMPT_TEXT_MAX)
  .refine(isWellFormedText)
  .superRefine((text, context) => {
    const problem = promptTextProblem(text);
    if (problem) context.addIssue({ code: 'custom', message: `prompts:validation.${problem}`, params: { problem } });
  });

/**
 * A prompt as written (create, and the form of both screens): the rules of `PROMPT_RULES`, checked
 * by the server and by both forms with this one schema.
 */
export const promptBodySchema = z.object({ name: promptNameSchema, text: promptTextSchema }).strict();
export type PromptBody = z.infer<typeof promptBodySchema>;

export const promptPatchSchema = z
  .object({ name: promptNameSchema.optional(), text: promptTextSchema.optional() })
  .strict()
  .refine((body) => body.name !== undefined || body.text !== undefined, { message: 'name or text is required' });

const PROMPT_RULES = `Name 1–${PROMPT_NAME_MAX} characters on one line; text 1–${PROMPT_TEXT_MAX} characters; variables \`{{name}}\` (a letter, then letters, digits or _, at most ${PROMPT_VARIABLE_NAME_MAX} characters; at most ${PROMPT_VARIABLES_MAX}) — anything else in \`{{…}}\` is a 400`;

export const listPrompts = defineEndpoint({
  method: 'GET',
  path: '/prompts/',
  access: 'member',
  errors: {},
  response: z.object({ items: z.array(promptSchema) }),
  summary: "The prompts the member can insert: the tenant's (scope tenant) then their own (scope personal), each by name",
  tags: ['prompts'],
});

export const createPrompt = defineEndpoint({
  method: 'POST',
  path: '/prompts/',
  access: 'member',
  errors: { 409: ['prompt_name_taken'], 422: ['prompt_limit_reached'] },
  body: promptBodySchema,
  response: promptSchema,
  summary: `Add a personal prompt. ${PROMPT_RULES}; 409 when another of the member's prompts has the name (letter case ignored); 422 past the member's limit`,
  tags: ['prompts'],
});

export const patchPrompt = defineEndpoint({
  method: 'PATCH',
  path: '/prompts/:id/',
  access: 'member',
  errors: { 404: ['not_found'], 409: ['prompt_name_taken'] },
  params: idParamsSchema,
  body: promptPatchSchema,
  response: promptSchema,
  summary: "Edit one of the member's own prompts (404 for a tenant prompt or another member's: members change only their own)",
  tags: ['prompts'],
});

export const deletePrompt = defineEndpoint({
  method: 'DELETE',
  path: '/prompts/:id/',
  access: 'member',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: okSchema,
  summary: "Delete one of the member's own prompts (404 for a tenant prompt or another member's)",
  tags: ['prompts'],
});
