/**
 * Runs `run` every `seconds` (0: never) on a timer that does not keep the process alive; a failed run
 * goes to `onError` and the next one still comes. Returns what stops it. The server's periodic sweeps
 * (renewals, credit periods, task files) are idempotent, so several processes may run them at once.
 */
export function runEvery(seconds: number, run: () => Promise<unknown>, onError: (error: unknown) => void): () => void {
  if (seconds <= 0) return () => {};
  const timer = setInterval(() => run().catch(onError), seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
