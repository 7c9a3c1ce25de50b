import type { AppDeps } from '../../deps';
import { and, asc, inArray, isNotNull, lt } from 'drizzle-orm';
import { clock } from '../../clock';
import { backgroundTasks } from '../../db/schema';

const SWEEP_BATCH = 100;

/**
 * Deletes the stored files of tasks that finished more than MEMBER_EXPORT_RETENTION_HOURS ago by the server's clock
 * (member exports' output, bulk uploads' input; a running task has no finish time, so its file
 * stays) and forgets their keys. The file goes first and the key after, so a sweep cut short
 * deletes it again next time; deleting a missing file is no error, so sweeps of several processes
 * may overlap. Returns how many files went.
 */
export async function sweepTaskFiles({ db, store, config }: Pick<AppDeps, 'db' | 'store' | 'config'>): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - config.MEMBER_EXPORT_RETENTION_HOURS * 3_600_000);
  let removed = 0;
  for (;;) {
    const due = await db
      .select({ id: backgroundTasks.id, fileKey: backgroundTasks.fileKey })
      .from(backgroundTasks)
      .where(and(isNotNull(backgroundTasks.fileKey), lt(backgroundTasks.finishedAt, cutoff)))
      .orderBy(asc(backgroundTasks.finishedAt))
      .limit(SWEEP_BATCH);
    if (due.length === 0) return removed;
    for (const task of due) await store.delete(task.fileKey!);
    await db
      .update(backgroundTasks)
      .set({ fileKey: null })
      .where(
        inArray(
          backgroundTasks.id,
          due.map((task) => task.id),
        ),
      );
    removed += due.length;
  }
}
