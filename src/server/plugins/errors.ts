import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody } from '../../shared/api/common';
import { answersError, type Endpoint } from '../../shared/api/endpoint';
import { isConnectionLost } from '../db/databaseErrors';
import { AppError } from '../errors';
import { RateLimitedError } from '../shared/rateLimit';

/**
 * The SQLSTATE of a database "data exception" (class 22: invalid byte sequence, value out of range,
 * invalid text representation…), looked up through the causes drizzle wraps the driver error in.
 */
function dataExceptionState(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return code;
    current = current.cause;
  }
  return undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract endpoint of a route registered from one (routes/endpointRoute.ts). */
    endpoint?: Endpoint;
  }
  interface FastifyInstance {
    /** Tests: an AppError whose code the endpoint does not declare is answered as a 500 (buildApp `strictErrorCodes`). */
    strictErrorCodes: boolean;
  }
}

/**
 * The AppError to answer: `error`, unless its endpoint does not declare its (status, code). That is
 * logged; in production the caller still gets the error as thrown, in tests (`strictErrorCodes`) a
 * 500, so the test that reached it fails. An error before the endpoint's own code ran (an unknown
 * tenant, no route) is not the endpoint's.
 */
export function declaredAppError(error: AppError, request: FastifyRequest): AppError {
  const endpoint = request.routeOptions.config?.endpoint;
  if (!endpoint || !request.tenant || answersError(endpoint, error.status, error.code)) return error;
  const strict = request.server.strictErrorCodes;
  const line = `undeclared error code: ${endpoint.method} ${endpoint.path} answered ${error.status} ${error.code}, which its contract (errors) does not declare`;
  request.log.error({ endpoint: `${endpoint.method} ${endpoint.path}`, status: error.status, code: error.code }, line);
  if (!strict) return error;
  // Test servers run without a logger: the line goes to stderr too, and the 500 names it.
  process.stderr.write(`${line}\n`);
  return new AppError(500, 'internal_error', `Server error: ${line}.`);
}

/**
 * The one error handler: every failure answers `{code, message, details?}`. Validation problems
 * are 400 with the issues in details, and so are data the database itself refused as malformed (the
 * safety net behind validation); unexpected errors are logged and answered as a bare 500.
 */
export function registerErrorHandling(app: FastifyInstance, { strictErrorCodes }: { strictErrorCodes: boolean }): void {
  app.decorate('strictErrorCodes', strictErrorCodes);
  app.setErrorHandler((thrown: FastifyError | AppError | Error, request, reply) => {
    const error = thrown instanceof AppError ? declaredAppError(thrown, request) : thrown;
    if (error instanceof AppError) {
      if (error instanceof RateLimitedError) reply.header('retry-after', error.retryAfterSeconds);
      const body: ErrorBody = { code: error.code, message: error.message };
      if (error.details !== undefined) body.details = error.details;
      return reply.status(error.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        location: error.validationContext,
        path: issue.instancePath,
        message: issue.message,
      }));
      return reply.status(400).send({ code: 'validation_error', message: 'Request content error, check the input.', details });
    }
    const sqlState = dataExceptionState(error);
    if (sqlState) {
      // Input the contract should have refused reached the database: still the caller's fault (400),
      // logged so the schema can be tightened.
      request.log.warn({ err: error, sqlState }, 'input rejected by the database');
      return reply.status(400).send({ code: 'validation_error', message: 'Request content error, check the input.' });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 500) {
      // Reads and idempotent writes were retried on a new connection before they got here (db/connectionRetry.ts).
      request.log.error(
        { err: error },
        isConnectionLost(error) ? 'request failed: database connection lost under a write that is not retried' : 'request failed',
      );
      return reply.status(500).send({ code: 'internal_error', message: 'Server error, try later.' });
    }
    // Fastify's own 4xx (malformed JSON, unsupported media type, body too large…).
    const code = status === 429 ? 'rate_limited' : status === 404 ? 'not_found' : 'bad_request';
    return reply.status(status).send({ code, message: error.message });
  });
}
