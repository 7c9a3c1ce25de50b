/**
 * Untrusted documents (uploads, chatbot documents, the admin's member spreadsheet) are parsed here,
 * in a pool of child processes (documentWorker.ts), never on the API's event loop: a document that
 * takes long delays no other request. Each process has a V8 heap limit (--max-old-space-size) and
 * each task a time budget counted from the moment its process starts it; a process that runs out
 * of either is ended (V8 aborts it, or the pool kills it) and replaced, and its document is refused
 * with DocumentLimitError ('memory' or 'time'), as a document over the byte budgets of storage/ is.
 *
 * Processes, not worker threads: a thread's resourceLimits are best-effort, and some allocation
 * patterns (one array grown past the limit) abort the whole server instead of the thread
 * (nodejs/node#47224; docs/decisions/0005-document-parsing-processes.md).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FileKind } from '../../shared/domain/files';
import type { ServerConfig } from '../config';
import type { AppDeps } from '../deps';
import { DOCUMENT_WORKER } from '../paths';
import { CorruptFileError, DocumentLimitError } from '../storage/documentErrors';
import type { ExtractLimits, Extraction, ProgressCallback } from '../storage/extractText';
import type { SpreadsheetFormat } from '../storage/spreadsheet';
import type { DocumentTask, Outcome, TaskRequest, WorkerMessage } from './documentWorker';

interface DocumentPoolSettings {
  /** Parsing processes at most (documents parsed at once); the other documents wait their turn. */
  processes: number;
  /** V8 heap limit of each process. */
  memoryMb: number;
  /** How long one task may run once its process started it. */
  timeBudgetMs: number;
}

const documentPoolSettings = (config: ServerConfig): DocumentPoolSettings => ({
  processes: config.DOCUMENT_WORKERS,
  memoryMb: config.DOCUMENT_WORKER_MEMORY_MB,
  timeBudgetMs: config.DOCUMENT_PARSE_TIMEOUT_SECONDS * 1000,
});

/** The parsing the server does, each call a task of the pool; the functions of storage/ they stand for say what they do. */
export interface DocumentPool {
  countPages(bytes: Buffer, kind: FileKind): Promise<number | null>;
  extractText(bytes: Buffer, kind: FileKind, mime: string, limits: ExtractLimits, onProgress?: ProgressCallback): Promise<Extraction>;
  readSpreadsheet(format: SpreadsheetFormat, bytes: Buffer, maxRows?: number): Promise<string[][]>;
  /** Ends the processes; tasks still waiting or running fail. */
  close(): Promise<void>;
}

/** An idle process is ended after this long: a parse leaves a large heap behind. */
const IDLE_TIMEOUT_MS = 30_000;
/** What a process last wrote to stderr, kept for the log when it dies (V8's out-of-memory report). */
const STDERR_KEPT = 4000;

interface Job {
  id: number;
  request: TaskRequest;
  onProgress?: ProgressCallback;
  progress: Promise<void>;
  progressError?: unknown;
  timer?: NodeJS.Timeout;
  timedOut: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Worker {
  child: ChildProcess;
  ready: boolean;
  job: Job | null;
  idleTimer?: NodeJS.Timeout;
  stderr: string;
  exited: Promise<void>;
}

export function createDocumentPool({ config, log }: Pick<AppDeps, 'config' | 'log'>): DocumentPool {
  const settings = documentPoolSettings(config);
  const workers = new Set<Worker>();
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;
  const entry = fileURLToPath(DOCUMENT_WORKER);

  function spawn(): void {
    const child = fork(entry, [], {
      // From the source tree the worker is TypeScript: it loads tsx as the server did.
      execArgv: [...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), `--max-old-space-size=${settings.memoryMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const worker: Worker = { child, ready: false, job: null, stderr: '', exited: new Promise((resolve) => child.once('exit', () => resolve())) };
    workers.add(worker);
    child.stderr?.on('data', (chunk: Buffer) => {
      worker.stderr = (worker.stderr + chunk.toString()).slice(-STDERR_KEPT);
    });
    child.on('message', (message: WorkerMessage) => onMessage(worker, message));
    child.once('exit', (code, signal) => onExit(worker, code, signal));
    child.on('error', (error) => log.warn({ err: error }, 'document worker process error'));
  }

  /** Idle processes neither hold the server open nor live long. */
  function setIdle(worker: Worker, idle: boolean) {
    clearTimeout(worker.idleTimer);
    if (idle) {
      worker.child.unref();
      worker.child.channel?.unref();
      worker.idleTimer = setTimeout(() => worker.child.kill(), IDLE_TIMEOUT_MS).unref();
    } else {
      worker.child.ref();
      worker.child.channel?.ref();
    }
  }

  function dispatch() {
    for (const worker of workers) {
      if (queue.length === 0) return;
      if (!worker.ready || worker.job) continue;
      const job = queue.shift()!;
      worker.job = job;
      setIdle(worker, false);
      worker.child.send(job.request, (error) => {
        if (!error || worker.job !== job) return;
        // The process went away before it had the task: the task waits for the next one.
        worker.job = null;
        queue.unshift(job);
        worker.child.kill('SIGKILL');
      });
    }
    const starting = [...workers].filter((worker) => !worker.ready).length;
    for (let waiting = queue.length - starting; waiting > 0 && workers.size < settings.processes; waiting--) spawn();
  }

  function finish(worker: Worker, outcome: Outcome) {
    const job = worker.job;
    if (!job) return;
    clearTimeout(job.timer);
    worker.job = null;
    setIdle(worker, true);
    dispatch();
    // Progress writes come first (the channel kept their order before the outcome).
    void job.progress.then(() => {
      if (job.progressError) job.reject(job.progressError);
      else if (outcome.ok) job.resolve(outcome.value);
      else if ('failed' in outcome) job.reject(new Error(`document worker: ${outcome.failed}`));
      else job.reject(outcome.refused === 'corrupt' ? new CorruptFileError(outcome.message) : new DocumentLimitError(outcome.refused, outcome.message));
    });
  }

  function onMessage(worker: Worker, message: WorkerMessage) {
    if ('ready' in message) {
      worker.ready = true;
      setIdle(worker, true);
      dispatch();
      return;
    }
    const job = worker.job;
    if (!job || job.id !== message.id) return;
    if ('started' in message) {
      job.timer = setTimeout(() => {
        job.timedOut = true;
        worker.child.kill('SIGKILL');
      }, settings.timeBudgetMs);
    } else if ('percentage' in message) {
      const { onProgress } = job;
      if (onProgress) {
        job.progress = job.progress
          .then(() => onProgress(message.percentage))
          .catch((error: unknown) => {
            job.progressError ??= error;
          });
      }
    } else finish(worker, message.outcome);
  }

  function onExit(worker: Worker, code: number | null, signal: NodeJS.Signals | null) {
    workers.delete(worker);
    clearTimeout(worker.idleTimer);
    const job = worker.job;
    if (job) {
      clearTimeout(job.timer);
      worker.job = null;
      const outOfMemory = signal === 'SIGABRT' || /heap out of memory/i.test(worker.stderr);
      if (job.timedOut) job.reject(new DocumentLimitError('time', `parsing took longer than ${settings.timeBudgetMs} ms`));
      else if (outOfMemory) job.reject(new DocumentLimitError('memory', `parsing needed more than ${settings.memoryMb} MB`));
      else if (closed) job.reject(new Error('the document pool was closed'));
      else job.reject(new CorruptFileError(`the parser ended on it (${signal ?? `exit code ${code}`})`));
      if (!job.timedOut) log.warn({ code, signal, stderr: worker.stderr }, 'a document worker process ended while parsing');
    } else if (!worker.ready && !closed) {
      // It never started (a broken build or install): fail one waiting task rather than retry forever.
      queue.shift()?.reject(new Error(`the document worker did not start (${signal ?? `exit code ${code}`}): ${worker.stderr}`));
    }
    if (!closed) dispatch();
  }

  function run<T>(task: DocumentTask, bytes: Buffer, onProgress?: ProgressCallback): Promise<T> {
    if (closed) return Promise.reject(new Error('the document pool was closed'));
    return new Promise<T>((resolve, reject) => {
      const id = nextId++;
      queue.push({
        id,
        request: { id, task, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
        onProgress,
        progress: Promise.resolve(),
        timedOut: false,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      dispatch();
    });
  }

  return {
    countPages: (bytes, kind) => run({ name: 'countPages', kind }, bytes),
    extractText: (bytes, kind, mime, limits, onProgress) => run({ name: 'extractText', kind, mime, limits }, bytes, onProgress),
    readSpreadsheet: (format, bytes, maxRows = Infinity) => run({ name: 'readSpreadsheet', format, maxRows }, bytes),
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('the document pool was closed'));
      const exits = [...workers].map((worker) => worker.exited);
      for (const worker of workers) worker.child.kill('SIGKILL');
      await Promise.all(exits);
    },
  };
}
