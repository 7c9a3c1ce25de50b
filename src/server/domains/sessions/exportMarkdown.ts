import type { Citation } from '../../../shared/api/chat';
import type { SessionExport } from '../../../shared/api/sessionTransfer';
import type { SupportedLanguage } from '../../../shared/domain/language';

interface MarkdownLabels {
  untitled: string;
  chatbot: string;
  exported: string;
  attachments: string;
  member: string;
  page: (page: number) => string;
  interrupted: Record<NonNullable<SessionExport['messages'][number]['interrupted']>, string>;
  imported: string;
}

/** The few words the Markdown file adds around the chat, in the member's language. */
const LABELS: Record<SupportedLanguage, MarkdownLabels> = {
  en: {
    untitled: 'Untitled chat',
    chatbot: 'Chatbot',
    exported: 'Exported',
    attachments: 'Attachments',
    member: 'Me',
    page: (page) => `p. ${page}`,
    interrupted: { stopped: 'Stopped', failed: 'Failed', interrupted: 'Interrupted' },
    imported: 'Imported',
  },
  ko: {
    untitled: '제목 없는 대화',
    chatbot: '챗봇',
    exported: '내보낸 시각',
    attachments: '첨부 파일',
    member: '나',
    page: (page) => `${page}쪽`,
    interrupted: { stopped: '중지됨', failed: '실패함', interrupted: '중단됨' },
    imported: '가져온 메시지',
  },
  zh: {
    untitled: '未命名对话',
    chatbot: '聊天机器人',
    exported: '导出时间',
    attachments: '附件',
    member: '我',
    page: (page) => `第 ${page} 页`,
    interrupted: { stopped: '已停止', failed: '失败', interrupted: '已中断' },
    imported: '已导入',
  },
  ja: {
    untitled: '無題のチャット',
    chatbot: 'チャットボット',
    exported: 'エクスポート日時',
    attachments: '添付ファイル',
    member: '自分',
    page: (page) => `${page}ページ`,
    interrupted: { stopped: '停止しました', failed: '失敗しました', interrupted: '中断されました' },
    imported: 'インポート済み',
  },
  es: {
    untitled: 'Chat sin título',
    chatbot: 'Chatbot',
    exported: 'Exportado',
    attachments: 'Archivos adjuntos',
    member: 'Yo',
    page: (page) => `p. ${page}`,
    interrupted: { stopped: 'Detenido', failed: 'Falló', interrupted: 'Interrumpido' },
    imported: 'Importado',
  },
};

/** Names and titles shown as written, never as Markdown. */
const literal = (text: string) => text.replace(/\s+/g, ' ').replace(/[\\`*_[\]<>~|#!]/g, '\\$&');
/** `2026-11-26 09:05 UTC`: the same in every language, and unambiguous. */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** Only web pages become links (a citation from a model could carry any scheme). */
function webLink(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href.replace(/[<>\s]/g, encodeURIComponent) : null;
  } catch {
    return null;
  }
}

function footnote(citation: Citation, labels: MarkdownLabels): string {
  if (citation.kind === 'web') {
    const title = literal(citation.title || citation.url);
    const link = webLink(citation.url);
    return link ? `[${title}](<${link}>)` : title;
  }
  return [literal(citation.name), citation.page !== undefined ? labels.page(citation.page) : null, citation.section ? literal(citation.section) : null]
    .filter(Boolean)
    .join(', ');
}

/**
 * The chat as Markdown: the title, then each message under its speaker and time, its attachments
 * by name, and its sources as footnotes (`[^n]`, numbered through the whole file, defined at its end).
 */
export function sessionMarkdown(document: SessionExport, language: SupportedLanguage): string {
  const labels = LABELS[language];
  const notes: string[] = [];
  const lines = [
    `# ${literal(document.title || labels.untitled)}`,
    '',
    `${labels.chatbot}: ${literal(document.chatbot.name || labels.chatbot)}  `,
    `${labels.exported}: ${when(document.exported_at)}`,
  ];
  for (const message of document.messages) {
    const speaker = message.speaker_name || (message.speaker === 'member' ? labels.member : labels.chatbot);
    const marks = [message.interrupted ? labels.interrupted[message.interrupted] : null, message.imported_at ? labels.imported : null].filter(Boolean);
    lines.push(
      '',
      '---',
      '',
      `### ${literal(speaker)} · ${when(message.created_at)}${marks.length ? ` · ${marks.join(' · ')}` : ''}`,
      '',
      message.text.trimEnd(),
    );
    if (message.attachments.length) lines.push('', `${labels.attachments}: ${message.attachments.map((file) => literal(file.name)).join(', ')}`);
    if (message.citations.length) {
      const refs = message.citations.map((citation) => {
        notes.push(`[^${notes.length + 1}]: ${footnote(citation, labels)}`);
        return `[^${notes.length}]`;
      });
      lines.push('', refs.join(' '));
    }
  }
  if (notes.length) lines.push('', '---', '', ...notes);
  return `${lines.join('\n')}\n`;
}
