import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';

/**
 * A small JSON document in the app's data folder, validated with zod on every read: a file that is
 * missing, corrupt or from an incompatible version yields the fallback instead of breaking start-up.
 * Writes go through a temporary file and a rename so a crash never leaves half a document, one
 * after the other: two at once (both windows closing as the app quits) shared the temporary file,
 * and the second rename failed.
 */
export function createJsonFile<S extends z.ZodType>(path: string, schema: S, fallback: () => z.output<S>) {
  let writing: Promise<void> = Promise.resolve();
  async function writeNow(value: z.output<S>): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(value, null, 2), 'utf8');
    await rename(temporary, path);
  }
  return {
    async read(): Promise<z.output<S>> {
      try {
        const parsed = schema.safeParse(JSON.parse(await readFile(path, 'utf8')));
        return parsed.success ? parsed.data : fallback();
      } catch {
        return fallback();
      }
    },
    write(value: z.output<S>): Promise<void> {
      const written = writing.then(() => writeNow(value));
      writing = written.catch(() => undefined);
      return written;
    },
  };
}
