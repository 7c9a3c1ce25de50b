/**
 * True when a write failed on a unique index (SQLSTATE 23505), whether the driver's error or one
 * Drizzle wrapped around it (`cause`): two requests racing for the same row, one of them loses.
 */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = current.cause;
  }
  return false;
}
