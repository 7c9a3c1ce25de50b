import { afterEach, describe, expect, it } from 'vitest';
import { docxLyingBomb, pdfSlowFormsBomb, pptxBomb, xlsxManyRows } from '../../../tests/fixtures/documentBombs';
import { sampleDocx, samplePdf, sampleXlsx } from '../../../tests/fixtures/sampleFiles';
import { type ServerConfig, testConfig } from '../config';
import { CorruptFileError, DocumentLimitError } from '../storage/documentErrors';
import { type DocumentPool, createDocumentPool } from './documentPool';

const limits = { maxPages: 100, maxChars: 100_000 };
const pools: DocumentPool[] = [];

const quiet = { info() {}, warn() {}, error() {} };

function pool(settings: Partial<ServerConfig> = {}) {
  const config = testConfig({ DOCUMENT_WORKERS: 1, DOCUMENT_WORKER_MEMORY_MB: 256, DOCUMENT_PARSE_TIMEOUT_SECONDS: 60, ...settings });
  const created = createDocumentPool({ config, log: quiet });
  pools.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((created) => created.close()));
});

async function limitOf(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (error instanceof DocumentLimitError) return error.limit;
  throw new Error(`expected a DocumentLimitError, got ${String(error)}`);
}

describe('the document worker pool', () => {
  it('parses documents in a worker process, with the progress of a PDF', async () => {
    const documents = pool();
    const progress: number[] = [];
    const pdf = await documents.extractText(samplePdf(['one', 'two']), 'pdf', 'application/pdf', limits, (percentage) => {
      progress.push(percentage);
    });
    expect(pdf).toEqual({
      sections: [
        { page: 1, text: 'one' },
        { page: 2, text: 'two' },
      ],
      percentage: 100,
    });
    expect(progress).toEqual([50, 100]);
    expect(await documents.countPages(samplePdf(['a', 'b', 'c']), 'pdf')).toBe(3);
    expect((await documents.extractText(sampleDocx(['hello']), 'docx', '', limits)).sections[0]!.text).toBe('hello');
    expect(
      await documents.readSpreadsheet(
        'xlsx',
        sampleXlsx({
          S: [
            ['a', 'b'],
            ['c', 1],
          ],
        }),
      ),
    ).toEqual([
      ['a', 'b'],
      ['c', '1'],
    ]);
  });

  it('gives back the refusals of the readers as their own errors', async () => {
    const documents = pool();
    await expect(documents.countPages(docxLyingBomb(), 'docx')).rejects.toBeInstanceOf(CorruptFileError);
    expect(await limitOf(documents.countPages(pptxBomb(), 'pptx'))).toBe('inflated_bytes');
    await expect(documents.readSpreadsheet('csv', Buffer.from('"unclosed'))).rejects.toBeInstanceOf(CorruptFileError);
  });

  it('reads a spreadsheet up to the rows asked for', async () => {
    const rows = await pool().readSpreadsheet('xlsx', xlsxManyRows({ bytes: 1024 * 1024 }), 3);
    expect(rows).toEqual([['1'], ['1'], ['1']]);
  });

  it('refuses a document whose parse outgrows the heap, and keeps serving with a new process', async () => {
    const documents = pool({ DOCUMENT_WORKER_MEMORY_MB: 64 });
    // Millions of rows grown into one array: the pattern that aborts V8 outright (nodejs/node#47224).
    expect(await limitOf(documents.readSpreadsheet('xlsx', xlsxManyRows()))).toBe('memory');
    expect(await documents.countPages(samplePdf(['after']), 'pdf')).toBe(1);
  });

  it('refuses a document whose parse outlasts the time budget, and keeps serving with a new process', async () => {
    const documents = pool({ DOCUMENT_PARSE_TIMEOUT_SECONDS: 1 });
    expect(await limitOf(documents.extractText(pdfSlowFormsBomb(), 'pdf', 'application/pdf', limits))).toBe('time');
    // Not a PDF: pdf.js loads its worker module on a fresh process's first PDF, which on a loaded
    // machine alone can outlast this pool's one-second budget.
    expect((await documents.extractText(sampleDocx(['after']), 'docx', '', limits)).sections[0]!.text).toBe('after');
  });
});
