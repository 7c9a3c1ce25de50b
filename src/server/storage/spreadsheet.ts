/**
 * Tables in and out as CSV and XLSX (member export, upload and its template). Reading XLSX opens the
 * zip with the bounded reader the document parser uses (`zipArchive.ts`), and the server reads
 * uploads only in the document worker pool (`workers/documentPool.ts`); writing builds the smallest
 * valid workbook (one sheet, inline strings) and streams it through fflate's `Zip`, so an export of
 * any length is written batch by batch without holding the file.
 */
import { Zip, ZipDeflate, strToU8 } from 'fflate';
import { CorruptFileError } from './documentErrors';
import { decodeEntities } from './xmlText';
import { unzip } from './zipArchive';

export type SpreadsheetFormat = 'csv' | 'xlsx';

export const SPREADSHEET_MIME: Record<SpreadsheetFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * A cell a spreadsheet program would run as a formula (`=`, `+`, `-`, `@`, tab, CR) gets a leading
 * apostrophe: member data (names, custom fields) is typed by members, and a file opened by an admin
 * must not execute it (CSV injection).
 */
function inert(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function csvCell(value: string): string {
  const safe = inert(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** CSV lines (RFC 4180, CRLF) for the rows. */
export function csvLines(rows: string[][]): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}

/** UTF-8 byte order mark: Excel reads a CSV without it in the system code page and garbles Korean, Japanese, Chinese. */
export const CSV_BOM = '\ufeff';

/** Parses CSV (RFC 4180: quoted fields, doubled quotes, CRLF or LF), at most `maxRows` rows; a leading BOM is skipped. */
export function parseCsv(text: string, maxRows = Infinity): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = text.startsWith(CSV_BOM) ? 1 : 0;
  for (; i < text.length && rows.length < maxRows; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (quoted) throw new CorruptFileError('a quoted CSV field is not closed');
  if ((cell !== '' || row.length > 0) && rows.length < maxRows) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

const escapeXml = (value: string) =>
  value
    // Characters XML 1.0 cannot carry at all.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** A1-style column letters of a 0-based index. */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

function sheetRowsXml(rows: string[][], firstRow: number): string {
  return rows
    .map((row, r) => {
      const line = firstRow + r;
      const cells = row
        .map((value, c) =>
          value === '' ? '' : `<c r="${columnName(c)}${line}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(inert(value))}</t></is></c>`,
        )
        .join('');
      return `<row r="${line}">${cells}</row>`;
    })
    .join('');
}

const XLSX_PARTS: Record<string, string> = {
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  '_rels/.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  'xl/workbook.xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Members" sheetId="1" r:id="rId1"/></sheets></workbook>',
  'xl/_rels/workbook.xml.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
};
const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';

/**
 * The file's bytes, chunk by chunk, for a header and batches of rows: CSV lines, or an XLSX zip whose
 * sheet is deflated as the batches arrive.
 */
export async function* spreadsheetChunks(format: SpreadsheetFormat, header: string[], batches: AsyncIterable<string[][]>): AsyncGenerator<Uint8Array> {
  if (format === 'csv') {
    yield strToU8(CSV_BOM + csvLines([header]));
    for await (const rows of batches) yield strToU8(csvLines(rows));
    return;
  }
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else ready.push(data);
  });
  function* drain() {
    if (failure) throw failure;
    yield* ready.splice(0);
  }
  for (const [name, content] of Object.entries(XLSX_PARTS)) {
    const part = new ZipDeflate(name, { level: 6 });
    zip.add(part);
    part.push(strToU8(content), true);
  }
  const sheet = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 6 });
  zip.add(sheet);
  sheet.push(strToU8(SHEET_HEAD + sheetRowsXml([header], 1)));
  let line = 2;
  for await (const rows of batches) {
    sheet.push(strToU8(sheetRowsXml(rows, line)));
    line += rows.length;
    yield* drain();
  }
  sheet.push(strToU8(SHEET_TAIL), true);
  zip.end();
  yield* drain();
}

/** A whole small file (the upload template) at once. */
export async function spreadsheetBuffer(format: SpreadsheetFormat, header: string[], rows: string[][] = []): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of spreadsheetChunks(
    format,
    header,
    (async function* () {
      if (rows.length) yield rows;
    })(),
  ))
    chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The parts of a workbook its sheets are read from (the text extraction reads the same). */
export const XLSX_SHEET_PARTS = (name: string) =>
  name === 'xl/workbook.xml' || name === 'xl/_rels/workbook.xml.rels' || name === 'xl/sharedStrings.xml' || /^xl\/worksheets\/[^/]+\.xml$/.test(name);

/**
 * The rows of the first sheet of an XLSX file as text, at most `maxRows`, cells placed by their `r`
 * reference so empty cells keep their column. Shared and inline strings and plain values are read;
 * formulas give their cached value.
 */
export function readXlsxRows(bytes: Buffer, maxRows = Infinity): string[][] {
  const parts = unzip(bytes, XLSX_SHEET_PARTS);
  const text = (xml: string) => [...xml.matchAll(/<t(?:\s[^>]*)?>([^<]*)<\/t>/g)].map((m) => decodeEntities(m[1] ?? '')).join('');
  const sharedStrings = (parts['xl/sharedStrings.xml'] ?? '')
    .split(/<si[\s>]/)
    .slice(1)
    .map(text);
  const firstSheetId = /<sheet\b[^>]*\br:id="([^"]+)"/.exec(parts['xl/workbook.xml'] ?? '')?.[1];
  const relation = [...(parts['xl/_rels/workbook.xml.rels'] ?? '').matchAll(/<Relationship\b[^>]*>/g)].find(([tag]) => tag.includes(`Id="${firstSheetId}"`));
  const target = (/\bTarget="([^"]+)"/.exec(relation?.[0] ?? '')?.[1] ?? '').replace(/^\/?(xl\/)?/, 'xl/');
  const sheet = parts[target];
  if (sheet === undefined) throw new CorruptFileError('the workbook has no first sheet');
  const rows: string[][] = [];
  for (const [, body = ''] of sheet.matchAll(/<row\b[^>]*?(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    if (rows.length >= maxRows) break;
    const row: string[] = [];
    let next = 0;
    for (const [, attributes = '', content = ''] of body.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const reference = /\br="([A-Z]+)\d+"/.exec(attributes)?.[1];
      const column = reference ? columnIndex(reference) : next;
      const type = /\bt="([^"]+)"/.exec(attributes)?.[1];
      const raw = decodeEntities(/<v>([^<]*)<\/v>/.exec(content)?.[1] ?? '');
      const value = type === 'inlineStr' ? text(content) : type === 's' ? (sharedStrings[Number(raw)] ?? '') : raw;
      while (row.length < column) row.push('');
      row[column] = value;
      next = column + 1;
    }
    rows.push(row);
  }
  return rows;
}

/**
 * The rows of a CSV or XLSX upload, trailing empty rows dropped. Reading stops after `maxRows`
 * rows: a file with more cannot be taken anyway, and a million rows would fill a worker's heap.
 */
export function readSpreadsheet(format: SpreadsheetFormat, bytes: Buffer, maxRows = Infinity): string[][] {
  const rows = format === 'csv' ? parseCsv(bytes.toString('utf8'), maxRows) : readXlsxRows(bytes, maxRows);
  while (rows.length > 0 && rows[rows.length - 1]!.every((cell) => cell.trim() === '')) rows.pop();
  return rows;
}
