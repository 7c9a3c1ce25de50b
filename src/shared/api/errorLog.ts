import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { okSchema } from './common';
import { ERROR_LOG_FIELD_MAX } from '../domain/errorLog';

/** A chat-style attachment block (spec §7): a title and a text field. */
export const errorLogBlockSchema = z.object({
  title: z.string().max(200),
  text: z.string(),
});

export const errorLogBodySchema = z.object({
  message: z.string(),
  source: z.string().max(200),
  stack: z.string().optional(),
  url: z.string(),
  user_agent: z.string(),
  timestamp: z.string(),
  error_id: z.string().max(100),
  attachments: z.array(errorLogBlockSchema).max(10).default([]),
});
export type ErrorLogBody = z.input<typeof errorLogBodySchema>;

export function truncateField(value: string): string {
  return value.length > ERROR_LOG_FIELD_MAX ? value.slice(0, ERROR_LOG_FIELD_MAX) : value;
}

export const logError = defineEndpoint({
  method: 'POST',
  path: '/log-error/',
  access: 'public',
  body: errorLogBodySchema,
  response: okSchema,
  summary: 'Store a client error report (fields truncated to 2900 characters)',
  tags: ['errors'],
});
