import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pdfFile, pdfSharedStreamBomb, streamObject, zlibZeros } from '../../../tests/fixtures/documentBombs';
import { samplePdf } from '../../../tests/fixtures/sampleFiles';
import { DocumentLimitError } from './documentErrors';
import { countPages, extractText } from './extractText';
import { MAX_PDF_CONTENT_BYTES, pdfContentBytes } from './pdfBudget';

const limits = { maxPages: 100, maxChars: 100_000 };

const page = (contents: string) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents ${contents} >>`;
const catalog = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'];

async function limitOf(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
    return null;
  } catch (error) {
    if (error instanceof DocumentLimitError) return error.limit;
    throw error;
  }
}

describe('the PDF content budget', () => {
  it('counts the decoded page contents of a real PDF', () => {
    const content = 'BT /F1 18 Tf 20 40 Td (one) Tj ET';
    expect(pdfContentBytes(samplePdf(['one', 'two']))).toBe(2 * content.length);
  });

  it('counts a content stream once per page that uses it, decoded', () => {
    const pdf = pdfSharedStreamBomb({ pages: 10, streamBytes: 1_000_000 });
    expect(pdf.length).toBeLessThan(5_000);
    expect(pdfContentBytes(pdf)).toBe(10_000_000);
  });

  it('refuses the PDF of 450 pages sharing one 65 MB stream before pdf.js reads a page', async () => {
    const bomb = pdfSharedStreamBomb();
    expect(() => pdfContentBytes(bomb)).toThrow(DocumentLimitError);
    expect(await limitOf(() => countPages(bomb, 'pdf'))).toBe('content_bytes');
    expect(await limitOf(() => extractText(bomb, 'pdf', 'application/pdf', limits))).toBe('content_bytes');
    // Without the budget pdf.js reads the same file (a limit, not damage, refuses it).
    expect(await countPages(pdfSharedStreamBomb({ pages: 2, streamBytes: 1000 }), 'pdf')).toBe(2);
  });

  it('stops inflating one stream at the budget', () => {
    const huge = pdfFile([...catalog, page('4 0 R'), streamObject('/Filter /FlateDecode', zlibZeros(MAX_PDF_CONTENT_BYTES + 1))]);
    expect(() => pdfContentBytes(huge)).toThrow(DocumentLimitError);
    expect(pdfContentBytes(huge, MAX_PDF_CONTENT_BYTES * 2)).toBe(MAX_PDF_CONTENT_BYTES + 1);
  });

  it('follows content arrays, indirect arrays and indirect lengths', () => {
    const data = deflateSync(Buffer.alloc(1000));
    const indirectLength = Buffer.concat([Buffer.from(`<< /Filter /FlateDecode /Length 9 0 R >>\nstream\n`), data, Buffer.from('\nendstream')]);
    const pdf = pdfFile([
      ...catalog,
      page('[5 0 R 5 0 R]'),
      page('6 0 R'),
      streamObject('/Filter /FlateDecode', data),
      '[5 0 R 7 0 R]',
      indirectLength,
      '<< >>',
      String(data.length),
    ]);
    expect(pdfContentBytes(pdf)).toBe(4000);
  });

  it('finds pages inside object streams', () => {
    const header = '10 0 11 100 ';
    const objects = `${page('5 0 R').padEnd(100)}${page('6 0 R')}`;
    const pdf = pdfFile([
      ...catalog,
      streamObject(`/Type /ObjStm /N 2 /First ${header.length} /Filter /FlateDecode`, deflateSync(Buffer.from(header + objects))),
      page('6 0 R'),
      streamObject('', Buffer.alloc(100)),
      streamObject('/Filter /FlateDecode', deflateSync(Buffer.alloc(5000))),
    ]);
    // The object stream itself, then pages 10 (100), 11 (5000) and 4 (5000).
    expect(pdfContentBytes(pdf)).toBe(header.length + objects.length + 100 + 5000 + 5000);
  });

  it('counts every version of a page an incremental update rewrote', () => {
    const original = pdfFile([...catalog, page('4 0 R'), streamObject('', Buffer.alloc(10)), streamObject('', Buffer.alloc(3000))]);
    const updated = Buffer.concat([original, Buffer.from(`3 0 obj\n${page('5 0 R')}\nendobj\n`)]);
    expect(pdfContentBytes(updated)).toBe(10 + 3000);
  });

  it('counts a stream it cannot decode (other filters, encrypted) at its raw length', () => {
    const raw = Buffer.from('00'.repeat(500));
    const pdf = pdfFile([...catalog, page('4 0 R'), streamObject('/Filter /ASCIIHexDecode', raw)]);
    expect(pdfContentBytes(pdf)).toBe(raw.length);
    const notFlate = pdfFile([...catalog, page('4 0 R'), streamObject('/Filter /FlateDecode', Buffer.from('encrypted bytes'))]);
    expect(pdfContentBytes(notFlate)).toBe('encrypted bytes'.length);
  });
});
