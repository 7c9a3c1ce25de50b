import { z } from 'zod';
import { defineEndpoint } from './endpoint';

/** A task mode of the tenant (spec §3: mode_name); its instructions stay on the server. */
export const taskModeSchema = z.object({ id: z.number().int(), mode_name: z.string() });
export type TaskMode = z.infer<typeof taskModeSchema>;

export const listTaskModes = defineEndpoint({
  access: 'member',
  method: 'GET',
  path: '/task-modes/',
  response: z.array(taskModeSchema),
  summary: 'The tenant’s task modes, for the composer’s chooser',
  tags: ['chat'],
});
