import { describe, expect, it } from 'vitest';
import { sampleDocx, sampleHwpx, samplePdf, samplePng, samplePptx, sampleXlsx, zipArchive } from '../../../tests/fixtures/sampleFiles';
import { CorruptFileError } from './documentErrors';
import { countPages, extractText, htmlToText } from './extractText';
import { detectFileType } from './fileType';

const limits = { maxPages: 100, maxChars: 100_000 };

describe('text extraction from real documents', () => {
  it('reads a PDF page by page, with page numbers', async () => {
    const pdf = samplePdf(['First page (intro)', 'Second page: results']);
    expect(await countPages(pdf, 'pdf')).toBe(2);
    const { sections, percentage } = await extractText(pdf, 'pdf', 'application/pdf', limits);
    expect(sections).toEqual([
      { page: 1, text: 'First page (intro)' },
      { page: 2, text: 'Second page: results' },
    ]);
    expect(percentage).toBe(100);
  });

  it('parses a large PDF in part and says how much, reporting progress as it goes', async () => {
    const pdf = samplePdf(['one', 'two', 'three', 'four']);
    const progress: number[] = [];
    const { sections, percentage } = await extractText(pdf, 'pdf', 'application/pdf', { maxPages: 1, maxChars: 1000 }, async (p) => {
      progress.push(p);
    });
    expect(sections.map((s) => s.text)).toEqual(['one']);
    expect(percentage).toBe(25);
    expect(progress).toEqual([25]);
  });

  it('reads Word paragraphs', async () => {
    const { sections } = await extractText(sampleDocx(['Quarterly report', '매출이 늘었습니다.']), 'docx', '', limits);
    expect(sections).toHaveLength(1);
    expect(sections[0]!.text).toContain('Quarterly report');
    expect(sections[0]!.text).toContain('매출이 늘었습니다.');
  });

  it('reads each sheet of a workbook with its name, shared strings and numbers', async () => {
    const xlsx = sampleXlsx({
      Sales: [
        ['Region', 'Total'],
        ['서울', 1200],
      ],
      Notes: [['R&D <draft>']],
    });
    expect(detectFileType(xlsx)).toBe('xlsx');
    const { sections } = await extractText(xlsx, 'xlsx', '', limits);
    expect(sections).toEqual([
      { heading: 'Sales', text: 'Region\tTotal\n서울\t1200' },
      { heading: 'Notes', text: 'R&D <draft>' },
    ]);
  });

  it('reads slides in order, a section per slide', async () => {
    const slides = Array.from({ length: 11 }, (_, i) => [`Slide ${i + 1} title`, `point ${i + 1}`]);
    const pptx = samplePptx(slides);
    expect(detectFileType(pptx)).toBe('pptx');
    expect(await countPages(pptx, 'pptx')).toBe(11);
    const { sections } = await extractText(pptx, 'pptx', '', limits);
    expect(sections).toHaveLength(11);
    expect(sections[1]).toEqual({ page: 2, text: 'Slide 2 title\npoint 2' });
    expect(sections[10]!.page).toBe(11);
  });

  it('reads a Hangul HWPX document', async () => {
    const hwpx = sampleHwpx(['한글 문서입니다.', '둘째 문단']);
    expect(detectFileType(hwpx)).toBe('hwpx');
    const { sections } = await extractText(hwpx, 'hwpx', 'application/hwp+zip', limits);
    expect(sections).toEqual([{ text: '한글 문서입니다.\n둘째 문단' }]);
  });

  it('reads text, CSV and Markdown as they are, HTML without markup or scripts', async () => {
    const csv = await extractText(Buffer.from('name,score\r\nKim,3\r\n'), 'text', 'text/csv', limits);
    expect(csv.sections).toEqual([{ text: 'name,score\nKim,3' }]);
    const html = await extractText(
      Buffer.from('<html><head><title>T</title><script>alert(1)</script><style>p{}</style></head><body><p>Fish &amp; chips</p><p>second</p></body></html>'),
      'text',
      'text/html; charset=utf-8',
      limits,
    );
    expect(html.sections[0]!.text).toBe('T\nFish & chips\nsecond');
    expect(htmlToText('<td>a</td><td>b</td>')).toBe('a\tb\t');
  });

  it('splits long text into sections and cuts at the character limit, with the share kept', async () => {
    const paragraph = 'word '.repeat(200).trim();
    const text = Array.from({ length: 20 }, () => paragraph).join('\n\n');
    const whole = await extractText(Buffer.from(text), 'text', 'text/plain', limits);
    expect(whole.sections.length).toBeGreaterThan(4);
    expect(whole.sections.every((s) => s.text.length <= 4000)).toBe(true);
    expect(whole.percentage).toBe(100);
    const part = await extractText(Buffer.from(text), 'text', 'text/plain', { maxPages: 10, maxChars: text.length / 2 });
    expect(part.percentage).toBe(50);
  });

  it('refuses damaged documents and has nothing to say about images', async () => {
    await expect(countPages(Buffer.from('%PDF-1.4\nnot really a pdf'), 'pdf')).rejects.toBeInstanceOf(CorruptFileError);
    const truncated = sampleDocx().subarray(0, 60);
    await expect(countPages(truncated, 'docx')).rejects.toBeInstanceOf(CorruptFileError);
    await expect(countPages(zipArchive({ 'a.txt': 'x' }).subarray(0, 40), 'xlsx')).rejects.toBeInstanceOf(CorruptFileError);
    expect(await extractText(samplePng(), 'png', 'image/png', limits)).toEqual({ sections: [], percentage: 100 });
  });
});
