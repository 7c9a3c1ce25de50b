/**
 * The server's clock for credit periods: the month a ledger row counts in, the monthly plan grant and
 * the expiry of purchased credits all read `clock.now()`, so tests move time by setting it instead
 * of waiting for a month to pass. Periods are calendar months in UTC. Background tasks' finish time
 * and the retention of their files go by it too.
 */
let source: () => Date = () => new Date();

export const clock = {
  now: (): Date => source(),
};

/** Tests only: replaces the clock (null restores the system clock). */
export function setClock(now: (() => Date) | null): void {
  source = now ?? (() => new Date());
}

/** `YYYY-MM` of an instant (UTC). */
export const periodOf = (at: Date): string => at.toISOString().slice(0, 7);

/** First and last day (`YYYY-MM-DD`) of the month of an instant (UTC). */
export function periodBounds(at: Date): { start: string; end: string } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0));
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
}

/** The day (`YYYY-MM-DD`, UTC) of an instant. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);
