/**
 * `npm run bench:hostile`: the hostile documents of issue 19 uploaded, one at a time, as a member
 * to a real server process (from source, PGlite in a temporary directory) while another client
 * reads `GET /tenants/` over and over. For each it prints the answer, how long the server took to
 * handle it, the longest wait of a concurrent read (target: 1 s) and the RSS growth of the server
 * process, and of the server with its document parsing processes (target: 512 MiB), sampled every
 * 20 ms from /proc (Linux). The slow PDF passes the upload checks and is parsed by the job until
 * the time budget ends it (DOCUMENT_PARSE_TIMEOUT_SECONDS, here BENCH_PARSE_TIMEOUT_SECONDS, 10 by
 * default). Figures only; nothing here passes or fails.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_MEMBER } from '../src/server/db/seed';
import { SOURCE_SERVER_ARGS, startServerProcess, stopBuiltServer } from '../tests/fixtures/builtServer';
import { docxLyingBomb, manyEntriesDocx, pdfSharedStreamBomb, pdfSlowFormsBomb, pptxBomb } from '../tests/fixtures/documentBombs';
import { envInt } from './benchSupport';

const PARSE_TIMEOUT_SECONDS = envInt('BENCH_PARSE_TIMEOUT_SECONDS', 10);
const MiB = 1024 * 1024;

const BOMBS = [
  { label: 'PPTX, 30 slides × 48 MiB of zeros', name: 'deck.pptx', bytes: () => pptxBomb() },
  { label: 'DOCX declaring 1,000 bytes, inflating to 1.5 GiB', name: 'lie.docx', bytes: () => docxLyingBomb() },
  { label: 'DOCX of 60,000 entries', name: 'many.docx', bytes: () => manyEntriesDocx() },
  { label: 'PDF, 450 pages sharing one 65 MB stream', name: 'pages.pdf', bytes: () => pdfSharedStreamBomb() },
  { label: 'PDF, a page drawing a form 2M times (parse job)', name: 'slow.pdf', bytes: () => pdfSlowFormsBomb({ draws: 2_000_000 }) },
];

/** Resident memory of a process, in bytes (0 once it is gone). */
function rss(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The server's RSS and that of the server with its child processes (the document workers). */
function memory(pid: number): { server: number; total: number } {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // Gone, or no /proc: counted as nothing.
  }
  const server = rss(pid);
  return { server, total: server + children.reduce((sum, child) => sum + rss(child), 0) };
}

const dir = mkdtempSync(join(tmpdir(), 'bench-hostile-'));
const server = await startServerProcess(SOURCE_SERVER_ARGS, {
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'error',
  DATA_DIR: join(dir, 'pglite'),
  DATABASE_URL: '',
  FILES_DIR: join(dir, 'files'),
  MAIL_OUTBOX_DIR: join(dir, 'outbox'),
  WEB_DIST_DIR: join(dir, 'no-web-client'),
  FILE_UPLOAD_LIMIT: '1000',
  JOB_POLL_INTERVAL_SECONDS: '0.5',
  DOCUMENT_PARSE_TIMEOUT_SECONDS: String(PARSE_TIMEOUT_SECONDS),
});
const api = `${server.origin}/api/v1`;
const pid = server.child.pid!;

try {
  const signIn = await fetch(`${api}/auth/sign-in/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DEMO_MEMBER) });
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const headers = { 'x-access-token': token };
  // Warm up: the first upload starts a parsing process, the first reads fill the caches.
  for (let i = 0; i < 20; i++) await fetch(`${api}/tenants/`).then((response) => response.arrayBuffer());

  console.log(`Server pid ${pid} (from source, PGlite), ${PARSE_TIMEOUT_SECONDS} s parse budget; targets: a read waits < 1 s, RSS grows < 512 MiB\n`);
  console.log('document | size | answer | handled in | longest read | reads | server RSS growth | with workers');
  console.log('-------- | ---- | ------ | ---------- | ------------ | ----- | ----------------- | ------------');
  for (const bomb of BOMBS) {
    const bytes = bomb.bytes();
    await sleep(500);
    const before = memory(pid);
    const peak = { ...before };
    const sampler = setInterval(() => {
      const now = memory(pid);
      peak.server = Math.max(peak.server, now.server);
      peak.total = Math.max(peak.total, now.total);
    }, 20);
    let done = false;
    let longestRead = 0;
    let reads = 0;
    const reader = (async () => {
      while (!done) {
        const started = performance.now();
        await fetch(`${api}/tenants/`).then((response) => response.arrayBuffer());
        longestRead = Math.max(longestRead, performance.now() - started);
        reads++;
      }
    })();

    const started = performance.now();
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(bytes)]), bomb.name);
    const response = await fetch(`${api}/files/`, { method: 'POST', headers, body: form });
    const body = (await response.json()) as { code?: string; items?: { id: number }[] };
    let answer = `${response.status} ${body.code ?? ''}`.trim();
    if (response.ok) {
      // Passed the upload checks: the parse job has it.
      const id = body.items![0]!.id;
      for (;;) {
        const progress = await fetch(`${api}/files/progress?file_ids=${id}`, { headers });
        const [state] = ((await progress.json()) as { items: { status: string }[] }).items;
        if (state!.status !== 'parsing') {
          answer = `200, then ${state!.status}`;
          break;
        }
        await sleep(200);
      }
    }
    const handled = performance.now() - started;
    done = true;
    await reader;
    clearInterval(sampler);
    const growth = (field: 'server' | 'total') => `${((peak[field] - before[field]) / MiB).toFixed(0)} MiB`;
    console.log(
      [
        bomb.label,
        `${(bytes.length / 1024).toFixed(0)} KB`,
        answer,
        `${handled.toFixed(0)} ms`,
        `${longestRead.toFixed(0)} ms`,
        String(reads),
        growth('server'),
        growth('total'),
      ].join(' | '),
    );
  }
  console.log(`\nServer alive after all of them: ${server.child.exitCode === null ? 'yes' : `no (${server.child.exitCode})`}`);
} finally {
  await stopBuiltServer(server.child);
  rmSync(dir, { recursive: true, force: true });
}
