import type { SupportedLanguage } from '../../shared/domain/language';
import { MAIL_TEMPLATES, type MailBlock, type MailTemplateData, type MailTemplateName } from './templates';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Every value in a mail comes from users (names, reasons, tenant names): escape all of it. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Links are built by the server, but a non-http(s) URL must never become a clickable href. */
function safeUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) throw new Error(`mail link must be an http(s) URL: ${url}`);
  return parsed.href;
}

const paragraphsHtml = (text: string) => escapeHtml(text).replace(/\r?\n/g, '<br>');

function blockText(block: MailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return block.text;
    case 'code':
      return `    ${block.text}`;
    case 'quote':
      return block.text
        .split(/\r?\n/)
        .map((line) => `> ${line}`)
        .join('\n');
    case 'link':
      return `${block.label}: ${safeUrl(block.url)}`;
  }
}

function blockHtml(block: MailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p>${paragraphsHtml(block.text)}</p>`;
    case 'code':
      return `<p style="font-size:24px;font-weight:bold;letter-spacing:2px;font-family:monospace">${escapeHtml(block.text)}</p>`;
    case 'quote':
      return `<blockquote style="margin:0 0 16px;padding:8px 12px;border-left:3px solid #ccc">${paragraphsHtml(block.text)}</blockquote>`;
    case 'link':
      return `<p><a href="${escapeHtml(safeUrl(block.url))}">${escapeHtml(block.label)}</a></p>`;
  }
}

/** The subject, text part and HTML part of one template in the recipient's language. */
export function renderMail<N extends MailTemplateName>(name: N, language: SupportedLanguage, data: MailTemplateData[N]): RenderedMail {
  const template = MAIL_TEMPLATES[name][language];
  // A name with a line break must not start a new header line.
  const subject = template.subject(data).replace(/[\r\n]+/g, ' ');
  const blocks = template.body(data);
  const text = `${blocks.map(blockText).join('\n\n')}\n`;
  const html = [
    '<!doctype html>',
    `<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:sans-serif;line-height:1.5;color:#222">',
    ...blocks.map(blockHtml),
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
