/**
 * Runs `run` every `seconds` (0: never) on a timer that does not keep the process alive; a failed run
 * goes to `onError` and the next one still comes, and one due while the last is still going is
 * skipped (a slow database must not pile runs up). Returns what stops it. The server's periodic
 * sweeps (renewals, credit periods, task files, chat answers) are idempotent, so several processes
 * may run them at once.
 */
export function runEvery(seconds: number, run: () => Promise<unknown>, onError: (error: unknown) => void): () => void {
  if (seconds <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    run()
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
