import { z } from 'zod';
import { defineEndpoint, type ErrorDeclaration } from './endpoint';
import { idParamsSchema, idSchema } from './common';
import { piiKindSchema } from './piiSettings';
import { IMAGE_SIZES } from '../domain/modes';
import { TOOL_CALL_STATUSES } from '../domain/mcp';

/** The fields of a send; `chatBodySchema` adds the rules between them (a visitor's send picks from these). */
export const chatFieldsSchema = z.object({
  text: z.string().max(100_000).default(''),
  file_ids: z.array(idSchema).max(20).default([]),
  session_hash_id: z.string().max(64).optional(),
  session_title: z.string().max(200).optional(),
  is_test: z.boolean().default(false),
  task_mode_id: idSchema.optional(),
  web_search: z.boolean().optional(),
  thinking: z.boolean().optional(),
  /** Image mode: the text is the prompt; the answer is one generated image (docs/decisions/0037-chat-modes.md). */
  image_generation: z.boolean().optional(),
  image_size: z.enum(IMAGE_SIZES).optional(),
  /**
   * Regenerate: a new answer to this member message of the session, kept beside its earlier answers
   * as a sibling. The stored question (text and files) is asked again, so `text` and `file_ids` stay
   * empty. Paid like any send (docs/decisions/0081-chat-branches.md).
   */
  regenerate_message_id: idSchema.optional(),
  /**
   * Edit and resend: `text` (and `file_ids`) replace this member message of the session as a new
   * branch from the same point; the old message and what followed it stay on their own branch.
   */
  edit_message_id: idSchema.optional(),
});

export const chatBodySchema = chatFieldsSchema.superRefine((body, context) => {
  const branching = body.regenerate_message_id !== undefined || body.edit_message_id !== undefined;
  if (body.regenerate_message_id !== undefined && body.edit_message_id !== undefined) {
    context.addIssue({ code: 'custom', path: ['edit_message_id'], message: 'Regenerate or edit, not both.' });
  }
  if (branching && body.session_hash_id === undefined) {
    context.addIssue({ code: 'custom', path: ['session_hash_id'], message: 'Regenerating or editing needs the session.' });
  }
  if (body.regenerate_message_id !== undefined && (body.text.trim() !== '' || body.file_ids.length > 0)) {
    context.addIssue({ code: 'custom', path: ['text'], message: 'A regeneration asks the stored question again: no text or files.' });
  }
});
export type ChatBody = z.input<typeof chatBodySchema>;

/** JSON in the `x-chat-meta` response header, known before the first token. */
export const chatMetaSchema = z.object({
  session_hash_id: z.string(),
  session_created: z.boolean(),
  member_message_id: z.number().int(),
  chatbot_message_id: z.number().int(),
  model: z.string(),
  /** Kinds of personal data masked in the stored message (the client masks its copy the same way). */
  masked_pii: z.array(piiKindSchema).optional(),
});
export type ChatMeta = z.infer<typeof chatMetaSchema>;

/**
 * Where part of an answer came from: a passage of a document (a chat file or a chatbot document,
 * found by retrieval) or a web page (web search). Streamed as `citation` frames and kept with the
 * answer, so the history shows them again.
 */
export const citationSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('document'),
    file_id: z.number().int(),
    name: z.string(),
    page: z.number().int().optional(),
    section: z.string().optional(),
    snippet: z.string(),
  }),
  z.object({ kind: z.literal('web'), url: z.string(), title: z.string().optional(), snippet: z.string().optional() }),
]);
export type Citation = z.infer<typeof citationSchema>;

/**
 * One tool call of an answer (issue 24): streamed as a `tool` frame when it starts (`running`) and
 * again, with the same `id`, when it ends; kept with the answer, so the history and the export show
 * it again. `text_offset` is how much of the answer's text came before it, where the answer shows
 * the step. `arguments` are the member's own (the audit log leaves a sensitive tool's out).
 */
export const toolCallSchema = z.object({
  /** The model's id of the call, unique within the answer. */
  id: z.string(),
  /** The tool (mcp_tools.id); null when the model named a tool the chatbot does not have. */
  tool_id: z.number().int().nullable(),
  name: z.string(),
  /** The MCP server's name as the admins registered it; empty for an unknown tool. */
  server_name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  status: z.enum(TOOL_CALL_STATUSES),
  /** The tool's result as text, cut to TOOL_RESULT_PREVIEW_MAX; the error said for a failed call; empty while running. */
  result: z.string(),
  duration_ms: z.number().int().nullable(),
  text_offset: z.number().int(),
  /** On a shared session's public page, a sensitive tool's call: its arguments and result are left out. */
  withheld: z.boolean().optional(),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

/** One `data:` line of the chat stream (DESIGN §6). */
export const chatFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), delta: z.string() }),
  z.object({ type: z.literal('thinking'), delta: z.string() }),
  z.object({ type: z.literal('citation'), citation: citationSchema }),
  z.object({ type: z.literal('image'), url: z.string() }),
  z.object({ type: z.literal('tool'), call: toolCallSchema }),
  z.object({
    type: z.literal('usage'),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    credits: z.number(),
  }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
  z.object({ type: z.literal('end'), finish_reason: z.enum(['stop', 'length', 'aborted', 'error']) }),
]);
export type ChatFrame = z.infer<typeof chatFrameSchema>;

/**
 * The answer could not be saved (the database stayed unreachable, or its server lost it to
 * another): the stream ends with this frame and no `usage` or `end` (DESIGN §6). The history
 * shows the answer as interrupted once a sweep saved it.
 */
export const ANSWER_NOT_SAVED_FRAME = {
  type: 'error',
  code: 'answer_not_saved',
  message: 'The answer could not be saved. Please ask again.',
} as const satisfies ChatFrame;

/** The server stopped before the answer was complete: saved as interrupted with its text (then `end`). */
export const SERVER_SHUTTING_DOWN_FRAME = {
  type: 'error',
  code: 'server_shutting_down',
  message: 'The server restarted before the answer was complete. Please ask again.',
} as const satisfies ChatFrame;

/** The refusals of a chat message before any answer streams, the same for a member, a visitor and an API key. */
export const CHAT_SEND_ERRORS = {
  400: ['web_search_unavailable'],
  402: ['credits_depleted'],
  403: ['forbidden', 'model_not_allowed'],
  404: ['not_found'],
  413: ['input_too_long'],
  422: ['message_empty', 'restricted_term'],
  424: ['web_search_failed'],
  428: ['pii_blocked'],
} as const satisfies ErrorDeclaration;

/**
 * The response schema documents the stream; the route writes `text/event-stream` itself.
 * Errors known before streaming (400, 402, 403, 413, 422, 428 `pii_blocked`) are plain JSON error bodies.
 */
export const chat = defineEndpoint({
  method: 'POST',
  path: '/chatbots/:id/chat/',
  access: 'member',
  errors: CHAT_SEND_ERRORS,
  params: idParamsSchema,
  body: chatBodySchema,
  response: z.string().describe('text/event-stream of `data: ChatFrame` lines'),
  summary: 'Send a message and stream the answer; `regenerate_message_id` answers a message again, `edit_message_id` resends it edited (both as new branches)',
  tags: ['chat'],
});
