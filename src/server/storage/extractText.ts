/**
 * The text of an uploaded document, in reading order, as sections: one per page (PDF), slide
 * (PPTX), sheet (XLSX) or section (HWPX), and chunks of about SECTION_CHARS for formats without
 * pages (DOCX, text, CSV, Markdown, HTML). Pure JavaScript: unpdf (pdf.js) for PDF, mammoth for
 * DOCX, and the XML of XLSX, PPTX and HWPX read here. Every zip package is opened by the bounded
 * reader of zipArchive.ts (mammoth too reads through it) and every PDF is first measured by
 * pdfBudget.ts. HWP (the older binary format) has no maintained pure-JS parser and is not accepted.
 *
 * These functions parse untrusted bytes: the server calls them only inside the document worker
 * pool (workers/documentPool.ts), which adds memory and time limits; never on the API's event loop.
 */
import mammoth from 'mammoth';
import { getDocumentProxy } from 'unpdf';
import type { FileKind } from '../../shared/domain/files';
import { CorruptFileError, DocumentLimitError } from './documentErrors';
import { pdfContentBytes } from './pdfBudget';
import { XLSX_SHEET_PARTS } from './spreadsheet';
import { decodeEntities } from './xmlText';
import { ZipPackage, unzip } from './zipArchive';

export interface ExtractedSection {
  page?: number;
  heading?: string;
  text: string;
}

export interface ExtractLimits {
  /** Pages, slides or sheets read at most: a larger document is parsed in part. */
  maxPages: number;
  /** Characters kept at most over the whole file. */
  maxChars: number;
}

export interface Extraction {
  sections: ExtractedSection[];
  /** Share of the document read, 0–100 (below 100 when a limit cut it short). */
  percentage: number;
}

/** Called as parsing advances, with the share of the whole document read so far (0–100). */
export type ProgressCallback = (percentage: number) => Promise<void> | void;

const SECTION_CHARS = 4000;

/** The parts of each zip format that parsing reads (never media): checked on upload, read when parsed. */
const TEXT_PARTS = {
  docx: (name: string) => /\.(xml|rels)$/i.test(name),
  xlsx: XLSX_SHEET_PARTS,
  pptx: (name: string) => /^ppt\/slides\/slide\d+\.xml$/.test(name),
  hwpx: (name: string) => /^Contents\/section\d+\.xml$/.test(name),
} satisfies Partial<Record<FileKind, (name: string) => boolean>>;

const percent = (done: number, total: number) => (total <= 0 ? 100 : Math.min(100, Math.floor((done / total) * 100)));

/** The text runs (`<tag>text</tag>`) of each paragraph (`<para …>`) of an XML part, a line per paragraph. */
function xmlParagraphs(xml: string, paragraphTag: string, textTag: string): string {
  const paragraphs = xml.split(new RegExp(`<${paragraphTag}[\\s>/]`));
  const run = new RegExp(`<${textTag}(?:\\s[^>]*)?>([^<]*)</${textTag}>`, 'g');
  return paragraphs
    .map((paragraph) => [...paragraph.matchAll(run)].map((m) => decodeEntities(m[1] ?? '')).join(''))
    .filter((line) => line.trim() !== '')
    .join('\n');
}

/** Numbered parts (`ppt/slides/slide12.xml`) in number order. */
const byNumber = (names: string[], pattern: RegExp) =>
  names
    .map((name) => ({ name, n: Number(pattern.exec(name)?.[1]) }))
    .filter((entry) => Number.isFinite(entry.n) && pattern.test(entry.name))
    .sort((a, b) => a.n - b.n);

/** Splits long text into sections at paragraph (or line) breaks, keeping at most `maxChars`. */
function chunkText(text: string, maxChars: number): Extraction {
  const normalized = text.replace(/\r\n?/g, '\n').trim();
  const kept = normalized.slice(0, maxChars);
  const sections: ExtractedSection[] = [];
  let rest = kept;
  while (rest.length > 0) {
    let cut = rest.length;
    if (rest.length > SECTION_CHARS) {
      const window = rest.slice(0, SECTION_CHARS);
      const paragraph = window.lastIndexOf('\n\n');
      const line = window.lastIndexOf('\n');
      cut = paragraph > SECTION_CHARS / 2 ? paragraph : line > SECTION_CHARS / 2 ? line : SECTION_CHARS;
    }
    const piece = rest.slice(0, cut).trim();
    if (piece) sections.push({ text: piece });
    rest = rest.slice(cut);
  }
  return { sections, percentage: percent(kept.length, normalized.length) };
}

/** Visible text of an HTML document: no scripts, styles or tags; block elements end lines. */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<(script|style|noscript|template)[\s>][\s\S]*?<\/\1\s*>/gi, '')
      .replace(/<(br|\/p|\/div|\/h[1-6]|\/li|\/tr|\/title|\/section|\/article)\b[^>]*>/gi, '\n')
      .replace(/<\/t[dh]\s*>/gi, '\t')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/[ \t\u00a0]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n');
}

async function extractPdf(bytes: Buffer, limits: ExtractLimits, onProgress?: ProgressCallback): Promise<Extraction> {
  pdfContentBytes(bytes);
  const pdf = await openPdf(bytes);
  try {
    const total = pdf.numPages;
    const pages = Math.min(total, limits.maxPages);
    const sections: ExtractedSection[] = [];
    let chars = 0;
    let read = 0;
    for (let number = 1; number <= pages && chars < limits.maxChars; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('')
        .trim()
        .slice(0, limits.maxChars - chars);
      chars += text.length;
      if (text) sections.push({ page: number, text });
      read = number;
      await onProgress?.(percent(read, total));
    }
    return { sections, percentage: percent(read, total) };
  } finally {
    await pdf.loadingTask.destroy();
  }
}

async function openPdf(bytes: Buffer) {
  try {
    return await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    throw new CorruptFileError(`unreadable PDF: ${(error as Error).message}`);
  }
}

/** Slides, sheets or sections, one each, up to the page and character limits. */
function pagedSections(parts: { heading?: string; page?: number; text: string }[], limits: ExtractLimits): Extraction {
  const sections: ExtractedSection[] = [];
  let chars = 0;
  let read = 0;
  for (const part of parts.slice(0, limits.maxPages)) {
    if (chars >= limits.maxChars) break;
    const text = part.text.trim().slice(0, limits.maxChars - chars);
    chars += text.length;
    if (text) sections.push({ ...part, text });
    read++;
  }
  return { sections, percentage: percent(read, parts.length) };
}

function extractPptx(bytes: Buffer, limits: ExtractLimits): Extraction {
  const parts = unzip(bytes, TEXT_PARTS.pptx);
  const slides = byNumber(Object.keys(parts), /^ppt\/slides\/slide(\d+)\.xml$/);
  return pagedSections(
    slides.map((slide, i) => ({ page: i + 1, text: xmlParagraphs(parts[slide.name] ?? '', 'a:p', 'a:t') })),
    limits,
  );
}

function extractHwpx(bytes: Buffer, limits: ExtractLimits): Extraction {
  const parts = unzip(bytes, TEXT_PARTS.hwpx);
  const sections = byNumber(Object.keys(parts), /^Contents\/section(\d+)\.xml$/);
  return pagedSections(
    sections.map((section) => ({ text: xmlParagraphs(parts[section.name] ?? '', 'hp:p', 'hp:t') })),
    limits,
  );
}

/** Cell texts of a worksheet, a tab between cells and a line per row; shared strings resolved. */
function sheetText(xml: string, sharedStrings: string[]): string {
  const rows = xml.split(/<row[\s>]/).slice(1);
  return rows
    .map((row) =>
      [...row.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)]
        .map(([, attributes = '', body = '']) => {
          const type = /\bt="([^"]+)"/.exec(attributes)?.[1];
          if (type === 'inlineStr') return xmlParagraphs(body, 'is', 't');
          const value = decodeEntities(/<v>([^<]*)<\/v>/.exec(body)?.[1] ?? '');
          return type === 's' ? (sharedStrings[Number(value)] ?? '') : value;
        })
        .join('\t')
        .trimEnd(),
    )
    .filter((line) => line !== '')
    .join('\n');
}

function extractXlsx(bytes: Buffer, limits: ExtractLimits): Extraction {
  const parts = unzip(bytes, TEXT_PARTS.xlsx);
  const sharedStrings = (parts['xl/sharedStrings.xml'] ?? '')
    .split(/<si[\s>]/)
    .slice(1)
    .map((item) => xmlParagraphs(`<x>${item}`, 'x', 't'));
  const targets = new Map(
    [...(parts['xl/_rels/workbook.xml.rels'] ?? '').matchAll(/<Relationship\b[^>]*>/g)].map(([tag]) => [
      /\bId="([^"]+)"/.exec(tag)?.[1] ?? '',
      (/\bTarget="([^"]+)"/.exec(tag)?.[1] ?? '').replace(/^\/?(xl\/)?/, 'xl/'),
    ]),
  );
  const sheets = [...(parts['xl/workbook.xml'] ?? '').matchAll(/<sheet\b[^>]*>/g)].map(([tag]) => ({
    heading: decodeEntities(/\bname="([^"]*)"/.exec(tag)?.[1] ?? ''),
    path: targets.get(/\br:id="([^"]+)"/.exec(tag)?.[1] ?? '') ?? '',
  }));
  return pagedSections(
    sheets.map((sheet) => ({ heading: sheet.heading, text: sheetText(parts[sheet.path] ?? '', sharedStrings) })),
    limits,
  );
}

/**
 * mammoth reads the package through this object (its `file` input, the one its own openZip returns)
 * instead of opening it with JSZip, which would inflate whatever the zip holds.
 */
function mammothFile(zip: ZipPackage) {
  return {
    exists: (name: string) => zip.has(name),
    read: async (name: string, encoding?: string) => (encoding ? zip.text(name) : zip.read(name)),
  };
}

async function extractDocx(bytes: Buffer, limits: ExtractLimits): Promise<Extraction> {
  const zip = new ZipPackage(bytes);
  try {
    const { value } = await mammoth.extractRawText({ file: mammothFile(zip) } as unknown as Parameters<typeof mammoth.extractRawText>[0]);
    return chunkText(value, limits.maxChars);
  } catch (error) {
    if (error instanceof CorruptFileError || error instanceof DocumentLimitError) throw error;
    throw new CorruptFileError(`unreadable DOCX: ${(error as Error).message}`);
  }
}

const isHtml = (mime: string) => mime.startsWith('text/html');

/** The text of a document of `kind` (images have none: they reach the model as pictures). */
export async function extractText(bytes: Buffer, kind: FileKind, mime: string, limits: ExtractLimits, onProgress?: ProgressCallback): Promise<Extraction> {
  switch (kind) {
    case 'pdf':
      return extractPdf(bytes, limits, onProgress);
    case 'docx':
      return extractDocx(bytes, limits);
    case 'xlsx':
      return extractXlsx(bytes, limits);
    case 'pptx':
      return extractPptx(bytes, limits);
    case 'hwpx':
      return extractHwpx(bytes, limits);
    case 'text': {
      const text = bytes.toString('utf8');
      return chunkText(isHtml(mime) ? htmlToText(text) : text, limits.maxChars);
    }
    default:
      return { sections: [], percentage: 100 };
  }
}

/**
 * Opens the document far enough to know it is readable, within its budgets, and how many pages it
 * has (PDF pages, slides, or the page count Word recorded); null when the format has no pages.
 * Zip packages have every part parsing reads inflated (and dropped), so a bomb is refused here, on
 * upload, with the same limits the parse job has. Throws CorruptFileError when the document cannot
 * be read and DocumentLimitError when it goes over a budget.
 */
export async function countPages(bytes: Buffer, kind: FileKind): Promise<number | null> {
  switch (kind) {
    case 'pdf': {
      pdfContentBytes(bytes);
      const pdf = await openPdf(bytes);
      const pages = pdf.numPages;
      await pdf.loadingTask.destroy();
      return pages;
    }
    case 'docx':
    case 'xlsx':
    case 'pptx':
    case 'hwpx': {
      const zip = new ZipPackage(bytes);
      const parts = zip.names().filter(TEXT_PARTS[kind]);
      for (const name of parts) zip.read(name);
      if (kind === 'pptx') return parts.length;
      if (kind !== 'docx') return null;
      if (!zip.has('word/document.xml')) throw new CorruptFileError('DOCX without its document part');
      const pages = zip.has('docProps/app.xml') ? /<Pages>(\d+)<\/Pages>/.exec(zip.text('docProps/app.xml'))?.[1] : undefined;
      return pages ? Number(pages) : null;
    }
    default:
      return null;
  }
}
