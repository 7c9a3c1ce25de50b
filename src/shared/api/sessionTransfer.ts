import { z } from 'zod';
import { citationSchema, toolCallSchema } from './chat';
import { defineEndpoint } from './endpoint';
import { idSchema } from './common';
import { hashParamsSchema, namedFileSchema, sessionSchema } from './sessions';
import {
  SESSION_EXPORT_FORMATS,
  SESSION_EXPORT_VERSION,
  SESSION_IMPORT_MAX_ATTACHMENTS,
  SESSION_IMPORT_MAX_BYTES,
  SESSION_IMPORT_MAX_CITATIONS,
  SESSION_IMPORT_MAX_MESSAGES,
  SESSION_IMPORT_MAX_TEXT,
  SESSION_IMPORT_MAX_TOOL_CALLS,
} from '../domain/sessionTransfer';
import { TOOL_RESULT_PREVIEW_MAX } from '../domain/mcp';
import { isWellFormedText } from '../domain/text';

const NAME_MAX = 500;

/** Text PostgreSQL can store: no lone surrogates. */
const storableText = (max: number) => z.string().max(max).refine(isWellFormedText, 'not well-formed Unicode');
const storableCitations = z
  .array(citationSchema)
  .max(SESSION_IMPORT_MAX_CITATIONS)
  .refine(
    (citations) => citations.every((citation) => Object.values(citation).every((value) => typeof value !== 'string' || isWellFormedText(value))),
    'not well-formed Unicode',
  );

/** Every string in a value well-formed (jsonb refuses half a surrogate pair). */
const wellFormedValue = (value: unknown): boolean =>
  typeof value === 'string'
    ? isWellFormedText(value)
    : Array.isArray(value)
      ? value.every(wellFormedValue)
      : value !== null && typeof value === 'object'
        ? Object.entries(value).every(([key, inner]) => isWellFormedText(key) && wellFormedValue(inner))
        : true;

/** A tool call as exported: kept as text on import, never run again. */
const exportedToolCallSchema = toolCallSchema.omit({ withheld: true }).extend({
  id: storableText(200),
  name: storableText(200),
  server_name: storableText(NAME_MAX),
  arguments: toolCallSchema.shape.arguments.refine(
    (value) => JSON.stringify(value).length <= SESSION_IMPORT_MAX_TEXT && wellFormedValue(value),
    'arguments too large or not well-formed Unicode',
  ),
  result: storableText(TOOL_RESULT_PREVIEW_MAX),
});

export const exportedMessageSchema = z.object({
  speaker: z.enum(['member', 'chatbot']),
  /** Who spoke, as the export named them (the member's or the chatbot's name); the import does not read it. */
  speaker_name: storableText(NAME_MAX),
  created_at: z.iso.datetime({ offset: true }),
  text: storableText(SESSION_IMPORT_MAX_TEXT),
  attachments: z.array(namedFileSchema).max(SESSION_IMPORT_MAX_ATTACHMENTS),
  /** The answer's sources, in the order it cited them (footnotes in Markdown and print). */
  citations: storableCitations,
  /** The answer's tool calls (arguments and result as text); absent in exports made before tools. */
  tool_calls: z.array(exportedToolCallSchema).max(SESSION_IMPORT_MAX_TOOL_CALLS).default([]),
  interrupted: z.enum(['stopped', 'failed', 'interrupted']).nullable(),
  /** When the message was itself imported from an earlier export; null for one said in this chat. */
  imported_at: z.iso.datetime({ offset: true }).nullable(),
});
export type ExportedMessage = z.infer<typeof exportedMessageSchema>;

/**
 * A chat as `GET /sessions/{hash}/export/?format=json` writes it and `POST /sessions/import/` reads
 * it back: the messages the history shows, oldest first. `version` names this shape.
 */
export const sessionExportSchema = z.object({
  version: z.literal(SESSION_EXPORT_VERSION),
  exported_at: z.iso.datetime({ offset: true }),
  title: storableText(200).nullable(),
  chatbot: z.object({ id: idSchema, name: storableText(NAME_MAX) }),
  messages: z.array(exportedMessageSchema).min(1).max(SESSION_IMPORT_MAX_MESSAGES),
});
export type SessionExport = z.infer<typeof sessionExportSchema>;

export const exportSession = defineEndpoint({
  method: 'GET',
  path: '/sessions/:hash/export/',
  access: 'member',
  errors: { 404: ['not_found'] },
  params: hashParamsSchema,
  query: z.object({ format: z.enum(SESSION_EXPORT_FORMATS) }),
  response: sessionExportSchema.describe(
    'format=json: this document (application/json); format=markdown: the chat as text/markdown, citations as footnotes. Both as a download named after the title (Content-Disposition with filename*)',
  ),
  summary: 'Download one of the member’s chats as Markdown or JSON (the messages its history shows)',
  tags: ['sessions'],
});

export const importSession = defineEndpoint({
  method: 'POST',
  path: '/sessions/import/',
  access: 'member',
  errors: { 403: ['chatbot_not_usable'], 413: ['bad_request'], 422: ['restricted_term'], 428: ['pii_blocked'] },
  body: sessionExportSchema,
  response: sessionSchema,
  summary: `Recreate a chat from its JSON export (version ${SESSION_EXPORT_VERSION}, at most ${SESSION_IMPORT_MAX_BYTES / 1024 / 1024} MiB) with a chatbot the member may chat with (403 chatbot_not_usable otherwise); the member’s messages pass the input guard like a send (422, 428); messages are marked imported and charge no credits`,
  tags: ['sessions'],
});
