import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type OpenAiError, chatCompletions, listModels } from '../../../shared/api/openai';
import { AppError } from '../../errors';
import { completion, completionChunk, completionId, listKeyModels, openApiTurn, runApiTurn } from './service';
import { RateLimitedError } from '../../shared/rateLimit';
import { RESPONSE_WRITTEN, registerEndpoint } from '../../routes/endpointRoute';
import { abortOnDisconnect, openEventStream } from '../../routes/eventStream';
import { domainRoutes } from '../plugin';
import { declaredAppError } from '../../plugins/errors';

/** OpenAI's error `type` for each status this API answers. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'insufficient_quota',
  403: 'permission_error',
  404: 'invalid_request_error',
  413: 'invalid_request_error',
  422: 'invalid_request_error',
  428: 'invalid_request_error',
  429: 'rate_limit_error',
};

/** Our codes where OpenAI has a well-known one of its own; the others keep ours. */
const OPENAI_CODES: Record<string, string> = {
  not_found: 'model_not_found',
  credits_depleted: 'insufficient_quota',
  input_too_long: 'context_length_exceeded',
  rate_limited: 'rate_limit_exceeded',
};

export function openAiError(status: number, code: string, message: string, param: string | null = null): OpenAiError {
  return {
    error: { message, type: ERROR_TYPES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error'), code: OPENAI_CODES[code] ?? code, param },
  };
}

/** A validation issue's place in OpenAI's `param` notation: `/messages/0/content` → `messages.[0].content`. */
const paramOf = (instancePath: string) =>
  instancePath
    .split('/')
    .filter(Boolean)
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : segment))
    .join('.') || null;

interface ValidationIssue {
  location: string;
  path: string;
  message: string;
}

/** The issues of a 400 `validation_error` raised outside schema validation (errors.ts details), else null. */
function validationIssues(error: AppError): ValidationIssue[] | null {
  if (error.code !== 'validation_error' || !Array.isArray(error.details) || error.details.length === 0) return null;
  return error.details as ValidationIssue[];
}

/**
 * OpenAI clients read `{error: {message, type, code}}`, so this scope answers failures in that
 * shape (same statuses as the app's API) instead of the app's `{code, message}`.
 */
function registerOpenAiErrors(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | AppError | Error, request, reply) => {
    const error = thrown instanceof AppError ? declaredAppError(thrown, request) : thrown;
    if (error instanceof AppError) {
      if (error instanceof RateLimitedError) reply.header('retry-after', error.retryAfterSeconds);
      const issues = validationIssues(error);
      if (issues) {
        // Refused before validation (a NUL byte anywhere): said like a schema failure, with where.
        const detail = issues.map((issue) => `${issue.path ? paramOf(issue.path) : issue.location}: ${issue.message}`).join('; ');
        return reply
          .status(400)
          .send(openAiError(400, 'invalid_request_error', `Invalid request: ${detail}`, issues[0]!.path ? paramOf(issues[0]!.path) : null));
      }
      return reply.status(error.status).send(openAiError(error.status, error.code, error.message));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const detail = error.validation.map((issue) => `${paramOf(issue.instancePath) ?? 'body'}: ${issue.message}`).join('; ');
      // Like OpenAI, `param` names the (first) offending parameter, so a client can tell which one.
      return reply.status(400).send(openAiError(400, 'invalid_request_error', `Invalid request: ${detail}`, paramOf(error.validation[0]!.instancePath)));
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'OpenAI-compatible request failed');
      return reply.status(500).send(openAiError(500, 'internal_error', 'Server error, try later.'));
    }
    return reply.status(status).send(openAiError(status, 'invalid_request_error', error.message));
  });
}

export const openAiRoutes = domainRoutes('openai', async (api, deps) => {
  await api.register(async (app) => {
    registerOpenAiErrors(app);

    registerEndpoint(app, listModels, async ({ requireApiKey }) => listKeyModels(deps, requireApiKey()));

    registerEndpoint(app, chatCompletions, async ({ body, tenant, requireApiKey, request, reply }) => {
      // Errors known before the answer (402, 403, 404, 413, 422, 428) are thrown here as JSON statuses.
      const turn = await openApiTurn(deps, tenant, requireApiKey(), body);
      const id = completionId();
      const created = Math.floor(Date.now() / 1000);
      const chatDeps = { ...deps, log: request.log };
      // A closed connection aborts the upstream call; what was streamed is still saved and charged.
      const response = reply.raw;
      const upstream = abortOnDisconnect(response);
      try {
        if (!body.stream) {
          let text = '';
          const outcome = await runApiTurn(chatDeps, turn, upstream.signal, (delta) => {
            text += delta;
          });
          // Never a 200 for an answer that was not saved, or cut short by a shutdown.
          if (outcome.failure) throw outcome.failure;
          return completion(id, body.model, created, text, outcome);
        }

        const send = openEventStream(reply);
        const write = (data: unknown) => send(typeof data === 'string' ? data : JSON.stringify(data));
        write(completionChunk(id, body.model, created, { delta: { role: 'assistant', content: '' } }));
        const outcome = await runApiTurn(chatDeps, turn, upstream.signal, (delta) =>
          write(completionChunk(id, body.model, created, { delta: { content: delta } })),
        );
        if (outcome.failure) {
          // OpenAI's clients raise on a chunk carrying `error`; no finish chunk and no [DONE] follow it,
          // so that a client reading only for [DONE] does not take the answer as complete.
          write(openAiError(outcome.failure.status, outcome.failure.code, outcome.failure.message));
        } else {
          write(completionChunk(id, body.model, created, { finish_reason: outcome.finishReason }));
          if (body.stream_options?.include_usage) write(completionChunk(id, body.model, created, null, outcome.usage));
          write('[DONE]');
        }
        if (!response.destroyed) response.end();
        return RESPONSE_WRITTEN;
      } finally {
        upstream.release();
      }
    });
  });
});
