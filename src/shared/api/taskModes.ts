import { z } from 'zod';
import { defineEndpoint } from './endpoint';

/**
 * A task mode of the tenant; its instructions stay on the server. Two names, one of them at least
 * (docs/decisions/0024-bilingual-names-fields-modes.md), and spec §3's `mode_name`: the one a reader in
 * the signed-in member's language is shown (English for a visitor), the other when it has none.
 */
export const taskModeSchema = z.object({ id: z.number().int(), ko_name: z.string(), en_name: z.string(), mode_name: z.string() });
export type TaskMode = z.infer<typeof taskModeSchema>;

export const listTaskModes = defineEndpoint({
  access: 'member',
  errors: {},
  method: 'GET',
  path: '/task-modes/',
  response: z.array(taskModeSchema),
  summary: 'The tenant’s task modes, for the composer’s chooser',
  tags: ['chat'],
});
