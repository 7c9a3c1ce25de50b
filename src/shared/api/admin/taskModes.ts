import { z } from 'zod';
import { hasOneName } from '../../domain/language';
import { TASK_MODE_INSTRUCTIONS_MAX, TASK_MODE_NAME_MAX } from '../../domain/tenantSettings';
import { isWellFormedText } from '../../domain/text';
import { bilingualNameSchema, idParamsSchema, okSchema } from '../common';
import { defineEndpoint } from '../endpoint';
import { taskModeSchema } from '../taskModes';

/** A task mode as the console edits it: its names and the instructions every send in it adds to the system prompt. */
export const adminTaskModeSchema = taskModeSchema.extend({ instructions: z.string() });
export type AdminTaskMode = z.infer<typeof adminTaskModeSchema>;

const modeName = bilingualNameSchema(TASK_MODE_NAME_MAX);
const instructions = z.string().trim().min(1).max(TASK_MODE_INSTRUCTIONS_MAX).refine(isWellFormedText);

/**
 * A mode's names (docs/decisions/0024-bilingual-names-fields-modes.md): Korean and English, one of the two
 * at least; `mode_name`, the spec's single name, is the name in the admin's language when the body
 * does not give that one itself.
 */
export const createTaskModeBodySchema = z
  .object({ ko_name: modeName.default(''), en_name: modeName.default(''), mode_name: modeName.optional(), instructions })
  .strict()
  .refine((body) => hasOneName(body) || Boolean(body.mode_name), { message: 'tenantSettings:validation.one_name', path: ['ko_name'] });

export const updateTaskModeBodySchema = z
  .object({ ko_name: modeName, en_name: modeName, mode_name: modeName, instructions })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to update' });

export const listAdminTaskModes = defineEndpoint({
  method: 'GET',
  path: '/admin/task-modes/',
  access: 'admin',
  errors: {},
  response: z.object({ items: z.array(adminTaskModeSchema) }),
  summary: 'Every task mode of the tenant with its instructions, oldest first (the composer’s order)',
  tags: ['admin'],
});

export const createTaskMode = defineEndpoint({
  method: 'POST',
  path: '/admin/task-modes/',
  access: 'admin',
  errors: { 409: ['task_mode_name_taken'], 422: ['validation_error'] },
  body: createTaskModeBodySchema,
  response: adminTaskModeSchema,
  summary:
    'Add a task mode: a Korean or an English name, or both (or the spec’s `mode_name`, the name in the admin’s language), and its instructions; 409 `task_mode_name_taken` when another mode has the name in that language, in any letter case',
  tags: ['admin'],
});

export const updateTaskMode = defineEndpoint({
  method: 'PATCH',
  path: '/admin/task-modes/:id/',
  access: 'admin',
  errors: { 404: ['not_found'], 409: ['task_mode_name_taken'], 422: ['task_mode_name_required'] },
  params: idParamsSchema,
  body: updateTaskModeBodySchema,
  response: adminTaskModeSchema,
  summary: 'Rename a task mode or change its instructions; 409 `task_mode_name_taken`, 422 `task_mode_name_required` when neither name would be left',
  tags: ['admin'],
});

export const deleteTaskMode = defineEndpoint({
  method: 'DELETE',
  path: '/admin/task-modes/:id/',
  access: 'admin',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: okSchema,
  summary: 'Delete a task mode (sends already made in it keep their answers)',
  tags: ['admin'],
});
