import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { okSchema } from './common';
import { ERROR_LOG_FIELD_MAX } from '../domain/errorLog';
import type { ApiError } from './apiError';
import type { Endpoint } from './endpoint';

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

/** A failed call as a client saw it; the same report comes from the renderer and from Electron main. */
export interface FailureReport {
  endpoint: Pick<Endpoint, 'method' | 'path'>;
  url: string;
  /** Undefined for calls whose body must not leave the client (the session calls carry passwords and tokens). */
  requestBody: unknown;
  error: ApiError;
  /**
   * Null when no Response is at hand: a network failure, or a failure already turned into an
   * ApiError (the chat stream), which is then described from the error's status and body.
   */
  response: Response | null;
}

function describeResponse(error: ApiError, response: Response | null, responseText: string): string {
  if (response) return `${response.status} ${response.statusText}\n${responseText}`;
  if (error.status === 0) return 'network failure (no response)';
  return `${error.status}\n${error.body ? JSON.stringify(error.body) : ''}`;
}

function describeHeaders(headers: Headers): string {
  return [...headers.entries()].map(([name, value]) => `${name}: ${value}`).join('\n');
}

/** Builds the log-error body: the chat-style attachment blocks of spec §7, each field truncated. */
export async function buildErrorLog(report: FailureReport, reporter: { source: string; userAgent: string }): Promise<ErrorLogBody> {
  const { endpoint, url, requestBody, error, response } = report;
  const responseText = response
    ? await response
        .clone()
        .text()
        .catch(() => '')
    : '';
  const attachments = [
    { title: 'Response', text: truncateField(describeResponse(error, response, responseText)) },
    { title: 'Headers', text: truncateField(response ? describeHeaders(response.headers) : '') },
    { title: 'Request body', text: truncateField(requestBody === undefined ? '' : JSON.stringify(requestBody)) },
  ];
  return {
    message: truncateField(`${endpoint.method} ${endpoint.path} failed with ${error.status}: ${error.message}`),
    source: reporter.source,
    stack: error.stack ? truncateField(error.stack) : undefined,
    url: truncateField(url),
    user_agent: truncateField(reporter.userAgent),
    timestamp: new Date().toISOString(),
    error_id: crypto.randomUUID(),
    attachments,
  };
}

export const logError = defineEndpoint({
  method: 'POST',
  path: '/log-error/',
  access: 'public',
  errors: {},
  body: errorLogBodySchema,
  response: okSchema,
  summary: 'Store a client error report (fields truncated to 2900 characters)',
  tags: ['errors'],
});
