import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '../../shared/api/endpoint';
import { type DatabaseHandle, openPglite } from '../db/client';
import type { TenantRow } from '../db/rows';
import { AppError, notFound } from '../errors';
import { registerErrorHandling } from './errors';

let handle: DatabaseHandle;
const app = Fastify();

beforeAll(async () => {
  handle = await openPglite();
  registerErrorHandling(app, { strictErrorCodes: false });
  app.get('/nul', async () => handle.db.execute(sql`select ${'a\u0000b'}::text`));
  app.get('/int', async () => handle.db.execute(sql`select ${'2147483648'}::integer`));
  app.get('/bug', async () => handle.db.execute(sql`select * from no_such_table`));
});
afterAll(async () => {
  await app.close();
  await handle.close();
});

describe('database errors', () => {
  it.each([
    ['a NUL byte', '/nul'],
    ['an integer out of range', '/int'],
  ])('%s the database refuses is the caller’s 400, without internals', async (_, url) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'validation_error', message: 'Request content error, check the input.' });
  });

  it('any other database failure stays a bare 500', async () => {
    const response = await app.inject({ url: '/bug' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'internal_error', message: 'Server error, try later.' });
  });
});

describe('error codes an endpoint does not declare', () => {
  const endpoint = defineEndpoint({
    method: 'GET',
    path: '/thing/',
    access: 'member',
    errors: { 404: ['not_found'] },
    response: z.object({}),
    summary: 'A thing',
    tags: [],
  });
  /** An app whose route answers what `?throw=` names: a declared code, one by rule, or an undeclared one. */
  async function appWith(strictErrorCodes: boolean) {
    const logs: { msg: string; level: number }[] = [];
    const built = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => void logs.push(JSON.parse(line) as { msg: string; level: number }) } },
    });
    registerErrorHandling(built, { strictErrorCodes });
    built.decorateRequest('tenant', null as unknown as TenantRow);
    built.addHook('onRequest', async (request) => {
      request.tenant = { id: 1 } as TenantRow;
    });
    const thrown: Record<string, () => AppError> = {
      declared: () => notFound('No such thing.'),
      byRule: () => new AppError(401, 'session_expired', 'The session has expired.'),
      undeclared: () => new AppError(409, 'conflict', 'Taken.'),
    };
    built.get<{ Querystring: { throw: string } }>('/thing/', { config: { endpoint } }, async (request) => {
      throw thrown[request.query.throw]!();
    });
    await built.ready();
    return { app: built, logs };
  }

  it('tests (strictErrorCodes): an undeclared code is a 500 and a log line naming the endpoint and the code', async () => {
    const { app: strict, logs } = await appWith(true);
    const undeclared = await strict.inject({ url: '/thing/?throw=undeclared' });
    expect(undeclared.statusCode).toBe(500);
    expect(undeclared.json()).toEqual({
      code: 'internal_error',
      message: 'Server error: undeclared error code: GET /thing/ answered 409 conflict, which its contract (errors) does not declare.',
    });
    expect(logs.find((line) => line.level === 50)?.msg).toMatch(/^undeclared error code: GET \/thing\/ answered 409 conflict/);
    // Declared, and by rule (a member endpoint's expired session): answered as thrown.
    expect((await strict.inject({ url: '/thing/?throw=declared' })).json()).toEqual({ code: 'not_found', message: 'No such thing.' });
    expect((await strict.inject({ url: '/thing/?throw=byRule' })).statusCode).toBe(401);
    await strict.close();
  });

  it('production: an undeclared code is logged and still answered as thrown', async () => {
    const { app: lenient, logs } = await appWith(false);
    const undeclared = await lenient.inject({ url: '/thing/?throw=undeclared' });
    expect(undeclared.statusCode).toBe(409);
    expect(undeclared.json()).toEqual({ code: 'conflict', message: 'Taken.' });
    expect(logs.find((line) => line.level === 50)?.msg).toMatch(/^undeclared error code: GET \/thing\/ answered 409 conflict/);
    await lenient.close();
  });
});
