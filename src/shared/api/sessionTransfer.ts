import { z } from 'zod';
import { citationSchema } from './chat';
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
} from '../domain/sessionTransfer';
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

export const exportedMessageSchema = z.object({
  speaker: z.enum(['member', 'chatbot']),
  /** Who spoke, as the export named them (the member's or the chatbot's name); the import does not read it. */
  speaker_name: storableText(NAME_MAX),
  created_at: z.iso.datetime({ offset: true }),
  text: storableText(SESSION_IMPORT_MAX_TEXT),
  attachments: z.array(namedFileSchema).max(SESSION_IMPORT_MAX_ATTACHMENTS),
  /** The answer's sources, in the order it cited them (footnotes in Markdown and print). */
  citations: storableCitations,
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
