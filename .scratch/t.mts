import { getDocumentProxy } from 'unpdf';
import { samplePdf } from '/work/wt/files/tests/fixtures/sampleFiles.ts';
const pdf = await getDocumentProxy(new Uint8Array(samplePdf()));
console.log(pdf.numPages);
const page = await pdf.getPage(1);
const c = await page.getTextContent();
console.log(JSON.stringify(c.items));
try { await getDocumentProxy(new Uint8Array(Buffer.from('%PDF-1.4 garbage'))); } catch (e) { console.log('ERR', e.name, e.message); }
