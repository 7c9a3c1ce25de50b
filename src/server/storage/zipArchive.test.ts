import { describe, expect, it } from 'vitest';
import { deflatedZeros, docxLyingBomb, manyEntriesDocx, pptxBomb } from '../../../tests/fixtures/documentBombs';
import { rawZip, sampleDocx, samplePptx, zipArchive, zipEntry } from '../../../tests/fixtures/sampleFiles';
import { CorruptFileError, DocumentLimitError } from './documentErrors';
import { countPages, extractText } from './extractText';
import { UnsupportedFileTypeError, checkFileType, detectFileType } from './fileType';
import { readSpreadsheet } from './spreadsheet';
import { MAX_INFLATED_BYTES, MAX_ZIP_ENTRIES, ZipPackage, zipEntries } from './zipArchive';

const limits = { maxPages: 100, maxChars: 100_000 };
const MiB = 1024 * 1024;

/** The limit a call was refused for, or what else it threw. */
async function refusal(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof DocumentLimitError) return `limit:${error.limit}`;
    if (error instanceof CorruptFileError) return 'corrupt';
    throw error;
  }
  return 'read';
}

describe('the bounded zip reader', () => {
  it('reads the entries of a real package, and their text', () => {
    const zip = new ZipPackage(zipArchive({ 'a.xml': '<a>한글</a>', 'b/c.rels': 'rels' }));
    expect(zip.names()).toEqual(['a.xml', 'b/c.rels']);
    expect(zip.text('a.xml')).toBe('<a>한글</a>');
    expect(zip.texts((name) => name.endsWith('.rels'))).toEqual({ 'b/c.rels': 'rels' });
  });

  it('stops inflating at the package budget, counting every part read', () => {
    const zip = new ZipPackage(rawZip([zipEntry('a', 'x'.repeat(600)), zipEntry('b', 'y'.repeat(600))]), 1000);
    expect(zip.read('a')).toHaveLength(600);
    expect(() => zip.read('b')).toThrow(DocumentLimitError);
  });

  it('refuses an entry that inflates past the size it declares, without inflating the rest', async () => {
    const bomb = docxLyingBomb();
    expect(detectFileType(bomb)).toBe('docx');
    expect(await refusal(() => new ZipPackage(bomb).read('word/document.xml'))).toBe('corrupt');
    // mammoth reads through the same reader: the 1.5 GiB are never inflated.
    expect(await refusal(() => extractText(bomb, 'docx', '', limits))).toBe('corrupt');
    expect(await refusal(() => countPages(bomb, 'docx'))).toBe('corrupt');
  });

  it('refuses a presentation whose slides inflate past the budget, on counting its pages as on parsing it', async () => {
    const bomb = pptxBomb();
    expect(bomb.length).toBeLessThan(2 * MiB);
    expect(await refusal(() => countPages(bomb, 'pptx'))).toBe('limit:inflated_bytes');
    expect(await refusal(() => extractText(bomb, 'pptx', '', limits))).toBe('limit:inflated_bytes');
    // Within the budget the same slides are read: it is the total that counts, not each part.
    const small = pptxBomb({ slides: 3, slideBytes: Math.floor(MAX_INFLATED_BYTES / 4) });
    expect(await countPages(small, 'pptx')).toBe(3);
  });

  it('refuses a zip listing more entries than any document has, already when sniffing its type', async () => {
    const bomb = manyEntriesDocx();
    expect(() => zipEntries(bomb)).toThrow(DocumentLimitError);
    expect(() => checkFileType(bomb, { fileName: 'many.docx' })).toThrow(DocumentLimitError);
    expect(await refusal(() => countPages(bomb, 'docx'))).toBe('limit:entries');
    expect(zipEntries(manyEntriesDocx(MAX_ZIP_ENTRIES))).toHaveLength(MAX_ZIP_ENTRIES);
  });

  it('refuses a member spreadsheet bomb like any document', async () => {
    const sheet = rawZip([
      zipEntry('[Content_Types].xml', '<Types/>'),
      zipEntry('xl/workbook.xml', '<workbook><sheets><sheet name="A" r:id="rId1"/></sheets></workbook>'),
      { name: 'xl/worksheets/sheet1.xml', compressed: deflatedZeros(MAX_INFLATED_BYTES + 1), size: MAX_INFLATED_BYTES + 1, crc: 0 },
    ]);
    expect(await refusal(() => readSpreadsheet('xlsx', sheet))).toBe('limit:inflated_bytes');
  });

  it('refuses damaged packages as corrupt, never as something else', async () => {
    const docx = sampleDocx(['hello']);
    // Cut inside the data: the directory is gone.
    expect(() => zipEntries(docx.subarray(0, docx.length - 30))).toThrow(CorruptFileError);
    // A directory pointing past the end of the file.
    const shifted = Buffer.from(docx);
    shifted.writeUInt32LE(docx.length * 2, docx.length - 6);
    expect(() => zipEntries(shifted)).toThrow(CorruptFileError);
    // Deflate data that is not deflate.
    const garbage = rawZip([{ name: 'word/document.xml', compressed: Buffer.from('not deflate at all'), size: 100, crc: 0 }]);
    expect(await refusal(() => new ZipPackage(garbage).read('word/document.xml'))).toBe('corrupt');
    expect(() => checkFileType(Buffer.from('PK\x03\x04 nothing else'), { fileName: 'x.docx' })).toThrow(UnsupportedFileTypeError);
  });

  it('still reads real Office documents', async () => {
    const pptx = samplePptx([['one'], ['two']]);
    expect(await countPages(pptx, 'pptx')).toBe(2);
    expect((await extractText(sampleDocx(['Quarterly report']), 'docx', '', limits)).sections[0]!.text).toBe('Quarterly report');
  });
});
