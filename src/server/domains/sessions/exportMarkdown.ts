import type { Citation, ToolCall } from '../../../shared/api/chat';
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
  tools: string;
  toolStatus: Record<ToolCall['status'], string>;
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
    tools: 'Tool calls',
    toolStatus: { running: 'Running', ok: 'OK', error: 'Failed', timeout: 'Timed out', refused: 'Refused', stopped: 'Stopped' },
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
    tools: '도구 호출',
    toolStatus: { running: '실행 중', ok: '성공', error: '실패', timeout: '시간 초과', refused: '거부됨', stopped: '중지됨' },
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
    tools: '工具调用',
    toolStatus: { running: '运行中', ok: '成功', error: '失败', timeout: '超时', refused: '已拒绝', stopped: '已停止' },
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
    tools: 'ツールの呼び出し',
    toolStatus: { running: '実行中', ok: '成功', error: '失敗', timeout: 'タイムアウト', refused: '拒否されました', stopped: '停止しました' },
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
    tools: 'Llamadas a herramientas',
    toolStatus: { running: 'En curso', ok: 'Correcta', error: 'Falló', timeout: 'Tiempo agotado', refused: 'Rechazada', stopped: 'Detenida' },
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

/** Control characters but line breaks and tabs: a tool's result is shown as plain text. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * A tool call: its name, server, outcome and time on one line, then its arguments and result in
 * a code block whose fence no backtick run inside can close, so nothing in them is Markdown or HTML.
 */
function toolCallLines(call: ToolCall, labels: MarkdownLabels): string[] {
  const body = [JSON.stringify(call.arguments), ...(call.result ? [call.result] : [])].join('\n').replace(CONTROL, '');
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map(([run]) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const server = call.server_name ? ` (${literal(call.server_name)})` : '';
  const duration = call.duration_ms === null ? '' : ` · ${call.duration_ms} ms`;
  return [
    '',
    `- **${literal(call.name)}**${server} · ${labels.toolStatus[call.status]}${duration}`,
    '',
    `  ${fence}text`,
    ...body.split('\n').map((line) => `  ${line}`),
    `  ${fence}`,
  ];
}

/**
 * The chat as Markdown: the title, then each message under its speaker and time, its attachments
 * by name, its tool calls (each with its arguments and result as plain text), and its sources as
 * footnotes (`[^n]`, numbered through the whole file, defined at its end).
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
    if (message.tool_calls.length) lines.push('', `${labels.tools}:`, ...message.tool_calls.flatMap((call) => toolCallLines(call, labels)));
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
