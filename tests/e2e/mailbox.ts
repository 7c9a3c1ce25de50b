import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SavedMail } from '../fixtures/smtpSink';

export type { SavedMail };

/**
 * The mail the e2e server sent, newest first. The server sends over SMTP to the sink that
 * playwright.config.ts starts beside it (tests/fixtures/smtpSinkProcess.ts), which keeps each mail
 * as a JSON file in E2E_MAILBOX_DIR; `template` comes from the mail's X-Mail-Template header.
 */
export async function mailbox({ limit = 50 }: { limit?: number } = {}): Promise<SavedMail[]> {
  const dir = process.env.E2E_MAILBOX_DIR;
  if (!dir) throw new Error('E2E_MAILBOX_DIR is set by playwright.config.ts');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.json') && !name.startsWith('.'));
  const newest = names.sort().reverse().slice(0, limit);
  return Promise.all(newest.map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8')) as SavedMail));
}
