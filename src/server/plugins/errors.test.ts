import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openPglite } from '../db/client';
import { registerErrorHandling } from './errors';

let handle: DatabaseHandle;
const app = Fastify();

beforeAll(async () => {
  handle = await openPglite();
  registerErrorHandling(app);
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
