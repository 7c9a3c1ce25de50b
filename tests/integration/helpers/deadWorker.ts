import { sql } from 'drizzle-orm';
import type { Database } from '../../../src/server/db/client';
import { rowsOf } from '../../../src/server/db/rows';

/**
 * Makes the running jobs of the given types, which a killed process held, look as they will a minute
 * later: their last heartbeat (pg-boss's `job.heartbeat_on`, at least 10 s old before pg-boss counts
 * the worker dead) that long ago. Call it once the process is gone; the process that takes over then
 * notices the dead worker at its next supervision instead of after the wait the crash tests used to
 * sit out. Returns how many jobs it aged, which a test should check: pg-boss renaming its table fails
 * here, and a renamed state shows as 0, instead of the test passing slowly.
 */
export async function ageDeadWorkersHeartbeats(db: Database, jobTypes: string[]): Promise<number> {
  const aged = await db.execute(
    sql`update pgboss.job set heartbeat_on = heartbeat_on - interval '1 minute' where state = 'active' and name in ${jobTypes} returning id`,
  );
  return rowsOf(aged).length;
}
