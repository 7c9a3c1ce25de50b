/**
 * A document parsing process: documentPool.ts forks it and sends it one task at a time over IPC.
 * It is its own process, not a worker thread, so that running out of heap (V8 aborts) ends only
 * this process (docs/decisions/0005-document-parsing-processes.md). For each task it says when it starts
 * (the pool's time budget counts parsing, not waiting), sends the extraction's progress, then the
 * outcome; messages on the channel keep their order.
 */
import type { FileKind } from '../../shared/domain/files';
import { CorruptFileError, type DocumentLimit, DocumentLimitError } from '../storage/documentErrors';
import { type ExtractLimits, countPages, extractText } from '../storage/extractText';
import { type SpreadsheetFormat, readSpreadsheet } from '../storage/spreadsheet';

export type DocumentTask =
  | { name: 'countPages'; kind: FileKind }
  | { name: 'extractText'; kind: FileKind; mime: string; limits: ExtractLimits }
  | { name: 'readSpreadsheet'; format: SpreadsheetFormat; maxRows: number };

export interface TaskRequest {
  id: number;
  task: DocumentTask;
  bytes: Uint8Array;
}

/**
 * A task's end. A refused document is a value, not a throw: an error's class and fields do not
 * survive the copy between processes. `failed` is anything else (a bug), passed on as a message.
 */
export type Outcome = { ok: true; value: unknown } | { ok: false; refused: 'corrupt' | DocumentLimit; message: string } | { ok: false; failed: string };

export type WorkerMessage = { ready: true } | { id: number; started: true } | { id: number; percentage: number } | { id: number; outcome: Outcome };

function send(message: WorkerMessage) {
  process.send?.(message);
}

function run(task: DocumentTask, bytes: Buffer, id: number): Promise<unknown> | unknown {
  switch (task.name) {
    case 'countPages':
      return countPages(bytes, task.kind);
    case 'extractText':
      return extractText(bytes, task.kind, task.mime, task.limits, (percentage) => send({ id, percentage }));
    case 'readSpreadsheet':
      return readSpreadsheet(task.format, bytes, task.maxRows);
  }
}

async function handle({ id, task, bytes }: TaskRequest): Promise<void> {
  send({ id, started: true });
  let outcome: Outcome;
  try {
    outcome = { ok: true, value: await run(task, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), id) };
  } catch (error) {
    if (error instanceof CorruptFileError) outcome = { ok: false, refused: 'corrupt', message: error.message };
    else if (error instanceof DocumentLimitError) outcome = { ok: false, refused: error.limit, message: error.message };
    else outcome = { ok: false, failed: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  send({ id, outcome });
}

// Only as a forked child: the server gone (its channel closed), the process has nothing left to do.
if (process.send) {
  process.on('disconnect', () => process.exit(0));
  process.on('message', (request: TaskRequest) => void handle(request));
  send({ ready: true });
}
