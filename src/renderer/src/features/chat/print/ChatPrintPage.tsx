import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { sessionTransferApi, type Citation, type ExportedMessage, type SessionExport } from '../../../../../shared/api';
import { useEndpointQuery } from '../../../api/endpointHooks';
import { IconPrinter } from '../../../components/icons';
import { MAIN_CONTENT_ID } from '../../../components/mainContent';
import { useDocumentTitle } from '../../../components/useDocumentTitle';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { MarkdownContent } from '../MarkdownContent';
import { toolCallFacts, toolCallStatusLabel } from '../ToolSteps';
import classes from './print.module.css';

/** Only web pages become links: a citation from a model could carry any scheme. */
function webHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** A source as a footnote: a web page's title and address, a document's name and where in it. */
function Footnote({ citation }: { citation: Citation }) {
  const { t } = useTranslation('chatExport');
  if (citation.kind === 'document') {
    const where = [citation.page !== undefined ? t('print.page', { page: citation.page }) : null, citation.section].filter(Boolean).join(' · ');
    return (
      <>
        {citation.name}
        {where && `, ${where}`}
      </>
    );
  }
  const href = webHref(citation.url);
  return href ? (
    <>
      <Anchor href={href} target="_blank" rel="noopener noreferrer">
        {citation.title || citation.url}
      </Anchor>{' '}
      <span className={classes.address}>{href}</span>
    </>
  ) : (
    <>{citation.title || citation.url}</>
  );
}

/**
 * The tools an answer called, as the Markdown export lists them: each call's name, server, status and
 * time, then its arguments and result as plain text (the tool's and the model's words, never markup).
 */
function PrintedToolCalls({ calls }: { calls: ExportedMessage['tool_calls'] }) {
  const { t } = useTranslation('chat');
  return (
    <Stack gap={4} mt={4} data-testid="print-tool-calls">
      {calls.map((call) => (
        <div key={call.id} className={classes.toolCall}>
          <Text size="sm" fw={600}>
            {[t('tools.used', { name: call.name }), toolCallStatusLabel(t, call), ...toolCallFacts(t, call)].filter(Boolean).join(' · ')}
          </Text>
          <pre className={classes.toolCallText}>
            {`${t('tools.arguments')}: ${JSON.stringify(call.arguments)}\n${t('tools.result')}: ${call.result === '' ? t('tools.no_result') : call.result}`}
          </pre>
        </div>
      ))}
    </Stack>
  );
}

/** One message: who said it and when, its text, the tools it called, its attachments by name, and its footnote marks (numbered from `firstNote`). */
function PrintedMessage({ message, firstNote, dateTime }: { message: ExportedMessage; firstNote: number; dateTime: Intl.DateTimeFormat }) {
  const { t } = useTranslation('chatExport');
  const speaker = message.speaker_name || t(message.speaker === 'member' ? 'print.me' : 'print.chatbot');
  return (
    <article className={classes.message} data-testid="print-message" data-speaker={message.speaker}>
      <Group gap="xs" className={classes.meta}>
        <Text fw={700} size="sm" data-testid="print-speaker">
          {speaker}
        </Text>
        <Text size="xs" c="dimmed" component="time" dateTime={message.created_at}>
          {dateTime.format(new Date(message.created_at))}
        </Text>
        {message.imported_at && (
          <Badge size="xs" variant="outline" color="gray">
            {t('print.imported')}
          </Badge>
        )}
        {message.interrupted && (
          <Badge size="xs" variant="outline" color="gray">
            {t(`print.interrupted.${message.interrupted}`)}
          </Badge>
        )}
      </Group>
      <MarkdownContent text={message.text} />
      {message.tool_calls.length > 0 && <PrintedToolCalls calls={message.tool_calls} />}
      {message.attachments.length > 0 && (
        <Text size="sm" mt={4} data-testid="print-attachments">
          {t('print.attachments')}: {message.attachments.map((file) => file.name).join(', ')}
        </Text>
      )}
      {message.citations.length > 0 && (
        <Text size="sm" mt={4}>
          {message.citations.map((_, index) => (
            <sup key={index} className={classes.noteMark}>
              <a href={`#note-${firstNote + index}`} aria-label={t('print.noteLabel', { number: firstNote + index })}>
                [{firstNote + index}]
              </a>
            </sup>
          ))}
        </Text>
      )}
    </article>
  );
}

function PrintedChat({ document }: { document: SessionExport }) {
  const { t } = useTranslation('chatExport');
  const language = useResolvedLanguage();
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const title = document.title || t('print.untitled');
  useDocumentTitle(title);
  // Footnotes are numbered through the whole chat, like the Markdown export's.
  const firstNotes = document.messages.reduce<number[]>((firsts, message, index) => {
    firsts.push(index === 0 ? 1 : firsts[index - 1]! + document.messages[index - 1]!.citations.length);
    return firsts;
  }, []);
  const notes = document.messages.flatMap((message) => message.citations);
  return (
    <>
      <header className={classes.heading}>
        <Title order={1} fz="h2">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {t('print.chatbotLine', { name: document.chatbot.name || t('print.chatbot') })} ·{' '}
          {t('print.exportedLine', { when: dateTime.format(new Date(document.exported_at)) })}
        </Text>
      </header>
      {document.messages.map((message, index) => (
        <PrintedMessage key={index} message={message} firstNote={firstNotes[index]!} dateTime={dateTime} />
      ))}
      {notes.length > 0 && (
        <section aria-labelledby="print-notes" className={classes.notes} data-testid="print-notes">
          <Title order={2} fz="h4" id="print-notes">
            {t('print.notes')}
          </Title>
          <ol>
            {notes.map((citation, index) => (
              <li key={index} id={`note-${index + 1}`}>
                <Footnote citation={citation} />
              </li>
            ))}
          </ol>
        </section>
      )}
    </>
  );
}

/**
 * A chat's print view (issue 23): the chat alone on a plain page (speakers, times, tool calls,
 * attachments by name, sources as footnotes) for the browser to print or save as PDF. It reads the JSON export, so
 * it shows exactly what the downloads hold; the toolbar is not printed.
 */
export default function ChatPrintPage() {
  const { sessionHashId = '' } = useParams();
  const { t } = useTranslation('chatExport');
  const exported = useEndpointQuery(sessionTransferApi.exportSession, { params: { hash: sessionHashId }, query: { format: 'json' } }, { retry: false });
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.page}>
      <Group justify="space-between" className={classes.toolbar} data-testid="print-toolbar">
        <Anchor component={Link} to={exported.data ? `/dashboard/chat/${exported.data.chatbot.id}/${sessionHashId}` : '/dashboard/chat'} size="sm">
          {t('print.back')}
        </Anchor>
        <Button leftSection={<IconPrinter size={16} />} onClick={() => window.print()} disabled={!exported.data} data-testid="print-button">
          {t('print.print')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed" className={classes.toolbar}>
        {t('print.hint')}
      </Text>
      {exported.data ? (
        <Stack gap={0}>
          <PrintedChat document={exported.data} />
        </Stack>
      ) : exported.isError ? (
        <Alert color="red" variant="light" role="alert" mt="lg">
          {t('print.failed')}
        </Alert>
      ) : (
        <Loader mt="lg" aria-label={t('print.loading')} />
      )}
    </main>
  );
}
