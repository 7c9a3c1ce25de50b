/** The codes on a database error and its causes (Drizzle wraps the driver's error as `cause`). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = current.cause;
  }
  return codes;
}

/** The SQLSTATE of a database error, whether the driver's error or one Drizzle wrapped around it. */
function sqlStateOf(error: unknown): string | undefined {
  return codesOf(error).find((code) => /^[0-9A-Z]{5}$/.test(code));
}

/** True when a write failed on a unique index (SQLSTATE 23505): two requests racing for the same row, one of them loses. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23505';
}

/**
 * True when the database refused a statement for the data it carried (SQLSTATE class 22 data
 * exception, class 23 integrity constraint), not because it is unreachable, out of resources or
 * shutting down: writing the same data again fails again, while other rows would pass.
 */
export function isDataRefusal(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'));
}

/** postgres-js's and the socket's codes for a connection that went away under a statement. */
const LOST_CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
]);

/**
 * True when a statement failed because its connection was lost, not because of what it asked: the
 * server terminated the backend (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect
 * now), class 08 connection exceptions, or the driver's socket closed. The same statement may pass
 * on a new connection; whether it already took effect is unknown for a write.
 */
export function isConnectionLost(error: unknown): boolean {
  return codesOf(error).some((code) => LOST_CONNECTION_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03');
}
