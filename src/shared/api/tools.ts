import { z } from 'zod';
import { defineEndpoint } from './endpoint';

/**
 * The MCP tools a chatbot's editor may give it (issue 24, the Studio's tool picker): a member the
 * tools their own groups may use now, an admin (who edits default chatbots in the same editor)
 * every tool switched on and still listed by its server.
 */
export const pickableToolSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** The MCP server's name as the admins registered it. */
  server_name: z.string(),
  /** Its calls' arguments are left out of the audit log. */
  is_sensitive: z.boolean(),
});
export type PickableTool = z.infer<typeof pickableToolSchema>;

export const listPickableTools = defineEndpoint({
  method: 'GET',
  path: '/tools/',
  access: 'member',
  errors: {},
  response: z.object({ items: z.array(pickableToolSchema) }),
  summary: 'The MCP tools the caller may give a chatbot: those their groups may use (admins: every enabled tool), by server and name',
  tags: ['chatbots'],
});
