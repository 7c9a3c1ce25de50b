import { describe, expect, it } from 'vitest';
import { isConnectionLost, isDataRefusal, isUniqueViolation } from './databaseErrors';

/** A driver error with its SQLSTATE, wrapped the way Drizzle wraps a failed query. */
const wrapped = (code: string) => new Error('Failed query: insert …', { cause: Object.assign(new Error('driver'), { code }) });

describe('database error classes', () => {
  it('finds the SQLSTATE on the error or its cause', () => {
    expect(isUniqueViolation(wrapped('23505'))).toBe(true);
    expect(isUniqueViolation(Object.assign(new Error('driver'), { code: '23505' }))).toBe(true);
    expect(isUniqueViolation(wrapped('23503'))).toBe(false);
  });

  it('counts data exceptions and integrity violations as the data’s fault, not lost connections or shutdowns', () => {
    expect(isDataRefusal(wrapped('22021'))).toBe(true); // a NUL in text
    expect(isDataRefusal(wrapped('22P05'))).toBe(true); // a NUL in jsonb
    expect(isDataRefusal(wrapped('23505'))).toBe(true);
    expect(isDataRefusal(wrapped('57P01'))).toBe(false); // admin shutdown
    expect(isDataRefusal(wrapped('08006'))).toBe(false); // connection failure
    expect(isDataRefusal(wrapped('40001'))).toBe(false); // serialization failure: a retry may pass
    expect(isDataRefusal(Object.assign(new Error('socket'), { code: 'ECONNRESET' }))).toBe(false);
    expect(isDataRefusal(new TypeError('a bug'))).toBe(false);
  });

  it('tells a lost connection from a refused statement', () => {
    expect(isConnectionLost(wrapped('57P01'))).toBe(true); // pg_terminate_backend
    expect(isConnectionLost(wrapped('08006'))).toBe(true);
    expect(isConnectionLost(wrapped('CONNECTION_CLOSED'))).toBe(true); // postgres-js
    expect(isConnectionLost(Object.assign(new Error('socket'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isConnectionLost(wrapped('23505'))).toBe(false);
    expect(isConnectionLost(wrapped('40001'))).toBe(false);
    expect(isConnectionLost(new TypeError('a bug'))).toBe(false);
  });
});
