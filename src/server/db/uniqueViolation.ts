/** The SQLSTATE of a database error, whether the driver's error or one Drizzle wrapped around it (`cause`). */
function sqlStateOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = current.cause;
  }
  return undefined;
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
