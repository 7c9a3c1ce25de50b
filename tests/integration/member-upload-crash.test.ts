/**
 * Issue 19, point 6: a server process killed while a bulk upload's invitation mails are going out.
 * The real server runs as its own process (the bundle `npm start` runs, tests/fixtures/serverBundle.ts) with a real SMTP server on
 * loopback; the SMTP server stops answering in the middle of a batch, the process is killed with
 * SIGKILL there, and another process finishes the job. On PostgreSQL (TEST_DATABASE_URL) the second process is
 * already running on the same database when the first dies; on PGlite, which one process opens at a
 * time, it starts on the directory after. Then every invitee has exactly one temporary password
 * across all the mails they got (a mail may come twice only as the same row: same Message-ID,
 * same content), and that password is the one the invitation accepts.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verify } from '@node-rs/argon2';
import { and, count, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openPglite } from '../../src/server/db/client';
import { auditLog, backgroundTasks, invitations, mailOutbox, plans } from '../../src/server/db/schema';
import { DEMO_ADMIN, seedDemoTenant } from '../../src/server/db/seed';
import { csvLines } from '../../src/server/storage/spreadsheet';
import { type BuiltServer, startServerProcess, stopBuiltServer } from '../fixtures/builtServer';
import { serverBundleArgs } from '../fixtures/serverBundle';
import { type SmtpSink, startSmtpSink } from '../fixtures/smtpSink';
import { freshPostgresDatabase, migratedPglite } from '../fixtures/testServer';
import { apiClient } from './helpers/client';
import { waitFor } from './helpers/memberTransfer';

/** The issue saw it with 3,000 rows; 250 have batches of 100 before, at and after the kill. */
const ROWS = 250;
/** In the 2nd batch of 100, in the middle of its 7th round of 8 sends. */
const HOLD_FROM = 150;
const postgresUrl = process.env.TEST_DATABASE_URL;

describe(`a server killed while a member upload's mails go out (${postgresUrl ? 'PostgreSQL, two processes' : 'PGlite, one process after the other'})`, () => {
  let sink: SmtpSink;
  let directory: string;
  let handle: DatabaseHandle | undefined;
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  const processes: ChildProcess[] = [];
  let serverArgs: string[] = [];

  beforeAll(async () => {
    // Built (once per state of the sources) while the database is made ready.
    const built = serverBundleArgs();
    sink = await startSmtpSink();
    directory = mkdtempSync(join(tmpdir(), 'upload-mail-crash-'));
    if (postgresUrl) {
      const fresh = await freshPostgresDatabase(postgresUrl);
      handle = fresh.handle;
      databaseUrl = fresh.url;
      dropDatabase = fresh.drop;
    } else {
      handle = await openPglite(join(directory, 'pglite'), undefined, await migratedPglite());
    }
    await seedDemoTenant(handle.db, { subdomain: 'demo', tenantName: 'demo workspace' });
    // The demo plan allows 50 pending invitations; this upload makes hundreds.
    await handle.db.update(plans).set({ invitationLimit: null });
    // PGlite: the server processes open the directory, one at a time.
    if (!postgresUrl) {
      await handle.close();
      handle = undefined;
    }
    serverArgs = await built;
  }, 60_000);
  afterAll(async () => {
    await Promise.all(processes.map((child) => stopBuiltServer(child, 'SIGKILL')));
    await handle?.close();
    await dropDatabase();
    await sink?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  function startServer(): Promise<BuiltServer> {
    const started = startServerProcess(serverArgs, {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '', DATA_DIR: join(directory, 'pglite') }),
      FILES_DIR: join(directory, 'files'),
      SMS_OUTBOX_DIR: join(directory, 'sms'),
      WEB_DIST_DIR: join(directory, 'no-web'),
      SMTP_URL: sink.url,
      LOG_LEVEL: 'error',
      SIGN_IN_RATE_LIMIT: '1000',
      JOB_POLL_INTERVAL_SECONDS: '0.5',
      JOB_SUPERVISE_INTERVAL_SECONDS: '1',
      // The job carries it: the process that takes over runs it again at once.
      MEMBER_TRANSFER_RETRY_SECONDS: '0',
      MAIL_LEASE_SECONDS: '6',
      MAIL_RETRY_SECONDS: '0.5',
      BILLING_RENEWAL_SWEEP_SECONDS: '0',
    });
    void started.then((server) => processes.push(server.child));
    return started;
  }

  it('sends every invitee one temporary password, which accepts the invitation; a mail sent twice is the same row', { timeout: 180_000 }, async () => {
    const first = await startServer();
    const firstApi = apiClient({ apiBase: `${first.origin}/api/v1` });
    const admin = (await firstApi.signIn(DEMO_ADMIN)).access_token;
    const emails = Array.from({ length: ROWS }, (_, i) => `crash-${i}@upload.test`);
    const form = new FormData();
    form.append(
      'files',
      new Blob([
        csvLines([['name', 'email', 'default_member_group', 'Department'], ...emails.map((email, i) => [`Crash ${i}`, email, 'Default group', 'Eng'])]),
      ]),
      'members.csv',
    );
    sink.holdFrom = HOLD_FROM;
    const started = await fetch(`${first.origin}/api/v1/admin/members/bulk-upload/`, { method: 'POST', headers: { 'x-access-token': admin }, body: form });
    expect(started.status).toBe(200);
    const taskId = ((await started.json()) as { id: number }).id;

    // The SMTP server has taken a mail of the batch and not answered: the process is in the middle of that batch's mails.
    await waitFor(async () => (sink.held > 0 ? true : undefined), 'the upload to reach the held mail', 120_000);
    const second = postgresUrl ? await startServer() : undefined;
    await stopBuiltServer(first.child, 'SIGKILL');
    // On PGlite, the sends the killed process never had an answer to, by address (it was the only sender).
    const heldSends = new Map<string, number>();
    for (const mail of sink.received.slice(HOLD_FROM - 1)) heldSends.set(mail.envelopeTo[0]!, (heldSends.get(mail.envelopeTo[0]!) ?? 0) + 1);
    sink.releaseReplies();
    const survivor = second ?? (await startServer());
    const api = apiClient({ apiBase: `${survivor.origin}/api/v1` });
    const token = (await api.signIn(DEMO_ADMIN)).access_token;

    const task = await waitFor(
      async () => {
        const body = (await api.call(`/tasks/${taskId}/`, { token })).body;
        return body.status === 'running' ? undefined : body;
      },
      'the other process to finish the upload',
      150_000,
    );
    expect(task).toMatchObject({ status: 'completed', result: { outcome: 'success', total: ROWS, invited: ROWS, failed: [] } });
    const mailsTo = new Map<string, Array<{ messageId: string; text: string; password: string }>>();
    await waitFor(
      async () => {
        for (const mail of sink.received.splice(0)) {
          const text = mail.parsed.text ?? '';
          const password = text
            .split('\n')
            .map((line) => line.trim())
            .find((line) => /^[A-Za-z2-9]{9}\d\d[!@#$%*]$/.test(line));
          const to = mail.envelopeTo[0]!;
          mailsTo.set(to, [...(mailsTo.get(to) ?? []), { messageId: mail.parsed.messageId ?? '', text, password: password ?? '' }]);
        }
        // On PGlite also each held mail sent once more by the survivor, which is stopped before the database is read.
        const resent = handle !== undefined || [...heldSends].every(([to, held]) => (mailsTo.get(to)?.length ?? 0) > held);
        return mailsTo.size === ROWS && resent ? true : undefined;
      },
      'every invitee to get their mail',
      150_000,
    );

    // Every invitee: one password, and any second mail is the same row sent again (the mail the killed process had sent unanswered).
    const repeated = [...mailsTo.entries()].filter(([, mails]) => mails.length > 1);
    expect(repeated.length).toBeGreaterThan(0);
    for (const [to, mails] of mailsTo) {
      expect(new Set(mails.map((mail) => mail.password)), to).toEqual(new Set([mails[0]!.password]));
      expect(new Set(mails.map((mail) => mail.messageId)), to).toEqual(new Set([mails[0]!.messageId]));
      expect(mails[0]!.password, to).not.toBe('');
    }

    // The password of a mail that came twice joins through the API.
    const [twice, [mail]] = repeated[0]!;
    const hash = /\/auth\/invitation\/([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    const policies = (await api.call('/policies/', { tenant: 'demo' })).body.items
      .filter((p: { is_mandatory: boolean }) => p.is_mandatory)
      .map((p: { id: number }) => p.id);
    const accepted = await api.call(`/invitations/${hash}/accept/`, {
      method: 'POST',
      body: { email: twice, name: 'Twice Mailed', password: 'Joined!2345', agreements: policies, temporary_password: mail!.password, language: 'en' },
    });
    expect(accepted.status).toBe(200);

    // The mails the killed process had sent unanswered are sent again once their lease runs out. On
    // PostgreSQL the survivor may have mailed everyone before that: wait for it. (On PGlite the wait
    // for every invitee's mail above waited for them.)
    if (handle) {
      const db = handle.db;
      await waitFor(
        async () => {
          const [left] = await db
            .select({ n: count() })
            .from(mailOutbox)
            .where(and(inArray(mailOutbox.recipient, emails), eq(mailOutbox.status, 'sending')));
          return left!.n === 0 ? true : undefined;
        },
        'the held mails to be sent again',
        30_000,
      );
    }
    await stopBuiltServer(survivor.child, 'SIGTERM');
    handle ??= await openPglite(join(directory, 'pglite'));
    const { db } = handle;
    // Exactly once in the database: one invitation per row, each with the password of its mails.
    const written = await db.select().from(invitations).where(like(invitations.email, 'crash-%'));
    expect(written).toHaveLength(ROWS);
    expect(new Set(written.map((row) => row.email)).size).toBe(ROWS);
    for (const invitation of written) {
      expect(await verify(invitation.temporaryPasswordHash, mailsTo.get(invitation.email)![0]!.password), invitation.email).toBe(true);
    }
    const [created] = await db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'invitation.create'), eq(auditLog.targetType, 'invitation')));
    expect(created!.n).toBe(ROWS);
    const [upload] = await db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'member.bulk_upload'));
    expect(upload!.n).toBe(1);
    // One mail row per invitation, all sent.
    const rows = await db
      .select({ status: mailOutbox.status, n: count() })
      .from(mailOutbox)
      .where(inArray(mailOutbox.recipient, emails))
      .groupBy(mailOutbox.status);
    expect(rows).toEqual([{ status: 'sent', n: ROWS }]);
    const [taskRow] = await db.select().from(backgroundTasks).where(eq(backgroundTasks.id, taskId));
    expect(taskRow!.status).toBe('completed');
  });
});
