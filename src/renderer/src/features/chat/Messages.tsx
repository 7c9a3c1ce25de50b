import { Fragment, memo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Alert, Avatar, Badge, Button, Group, Loader, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Citation, SessionFile, SessionMessage, ToolCall } from '../../../../shared/api';
import type { ChatRun } from './chatRun';
import type { ChatErrorKey } from './chatErrors';
import { interruptedOf } from './history';
import { Citations } from '../sources/Citations';
import { MarkdownContent } from './MarkdownContent';
import { answerParts, ToolSteps } from './ToolSteps';
import { AnswerActions } from '../../components/CopyButton';
import { AnswerFeedback } from './AnswerFeedback';
import { MessageFiles } from './attachments/MessageFiles';
import { GeneratedImage } from './modes/GeneratedImage';
import { ThinkingBlock } from './modes/ThinkingBlock';
import { answerImages } from './modes/imageFiles';
import classes from './chat.module.css';
import { messageText } from '../../i18n/keys';
import { AnswerBranchBar, type BranchActions, QuestionBranchBar, QuestionEditor } from './BranchControls';

export interface ChatbotFace {
  name: string;
  imageUrl: string | null;
}

/**
 * The quiet mark of a message imported from a chat's export (decision 0079): the word on screen, the
 * explanation in a tooltip and, whole, for a screen reader.
 */
function ImportedMark() {
  const { t } = useTranslation('chat');
  return (
    <Tooltip label={t('message.importedHint')} withArrow multiline w={260} events={{ hover: true, focus: false, touch: true }}>
      <Text component="span" size="xs" c="dimmed" className={classes.importedMark} data-testid="imported-mark">
        <span aria-hidden="true">{t('message.imported')}</span>
        <VisuallyHidden>{t('message.importedHint')}</VisuallyHidden>
      </Text>
    </Tooltip>
  );
}

function MemberBubble({ text, files, mark, tools }: { text: string; files: readonly SessionFile[]; mark?: ReactNode; tools?: ReactNode }) {
  return (
    <div data-testid="member-message" className={classes.memberMessage}>
      <MessageFiles files={files} />
      {text !== '' && (
        <div className={classes.memberRow}>
          <div className={classes.memberBubble}>{text}</div>
        </div>
      )}
      {mark || tools ? (
        <div className={classes.memberMeta}>
          {mark}
          {tools}
        </div>
      ) : null}
    </div>
  );
}

/** A stored question: editable and with its versions when the chat offers branches. */
function StoredQuestion({ message, branching }: { message: SessionMessage; branching?: BranchActions }) {
  const [editing, setEditing] = useState(false);
  const mark = message.imported && <ImportedMark />;
  if (!branching) return <MemberBubble text={message.text} files={message.files} mark={mark} />;
  if (editing) {
    return (
      <div data-testid="member-message">
        <MessageFiles files={message.files} />
        <QuestionEditor
          text={message.text}
          onCancel={() => setEditing(false)}
          onSend={(text) => {
            setEditing(false);
            branching.edit(message, text);
          }}
        />
      </div>
    );
  }
  return (
    <MemberBubble
      text={message.text}
      files={message.files}
      mark={mark}
      tools={<QuestionBranchBar question={message} actions={branching} onEdit={() => setEditing(true)} />}
    />
  );
}

function TypingIndicator() {
  const { t } = useTranslation('chat');
  return (
    <span className={classes.typing} role="status" aria-label={t('message.thinking')}>
      <span />
      <span />
      <span />
    </span>
  );
}

/** A question to send again as a new turn: its text and attached files. */
export interface Question {
  text: string;
  files: readonly SessionFile[];
}

/** Sends a question again (an answer cut off or failed offers it). */
export type AskAgain = (question: Question) => void;

/** Stopped is the member's choice; the others went wrong (red: orange is too bright for text, see theme.tsx). */
const BADGE_COLORS: Record<NonNullable<SessionMessage['interrupted']>, string> = { stopped: 'gray', failed: 'red', interrupted: 'red' };

interface AnswerProps {
  face: ChatbotFace;
  text: string;
  interrupted: SessionMessage['interrupted'];
  streaming?: boolean;
  /** The stored answer is still being written (on another device, or by a stream this page lost): its text so far. */
  beingWritten?: boolean;
  /** Offered under an answer that was cut off or failed. */
  onAskAgain?: () => void;
  error?: ChatErrorKey | null;
  citations?: Citation[];
  /** Its tool calls, each shown as a step where it was made in the text. */
  toolCalls?: ToolCall[];
  /** The answer's id once known (a step opened while it streams stays open in the stored answer). */
  answerId?: number | null;
  images?: { url: string; name?: string }[];
  /** The model's reasoning (thinking mode); `active` while it is still reasoning. */
  reasoning?: { text: string; ms: number | null; active: boolean; messageId: number | null } | null;
  /** More buttons beside copy under the finished answer (its rating). */
  actions?: ReactNode;
  /** Beside the finished answer's actions: its versions and regenerate. */
  branchBar?: ReactNode;
  /** Before the finished answer's actions: how it came to be here (imported). */
  mark?: ReactNode;
}

/** Generated images arrive as URLs; only web and same-origin addresses are shown. */
const isDisplayableImage = (url: string) => /^(https?:)?\/\//i.test(url) || url.startsWith('/');

/** A chatbot answer: avatar, sanitized markdown, and how it ended when it did not finish. */
export function ChatbotAnswer({
  face,
  text,
  interrupted,
  streaming = false,
  beingWritten = false,
  onAskAgain,
  error = null,
  citations = [],
  toolCalls = [],
  answerId = null,
  images = [],
  reasoning = null,
  actions,
  branchBar,
  mark,
}: AnswerProps) {
  const { t } = useTranslation('chat');
  const parts = answerParts(text, toolCalls);
  const calling = toolCalls.some((call) => call.status === 'running');
  return (
    <div className={classes.chatbotRow} data-testid="chatbot-message" data-streaming={streaming || beingWritten || undefined}>
      <Avatar src={face.imageUrl} alt={face.name} radius="xl" size={32} color="indigo">
        {face.name.slice(0, 1).toUpperCase()}
      </Avatar>
      <div className={classes.chatbotBody}>
        {reasoning && <ThinkingBlock text={reasoning.text} ms={reasoning.ms} active={reasoning.active} messageId={reasoning.messageId} />}
        {parts.map((part, index) => {
          const last = index === parts.length - 1;
          return (
            <Fragment key={index}>
              {part.text === '' && last && streaming && !calling && !reasoning?.active ? (
                <TypingIndicator />
              ) : part.text !== '' || (last && parts.length === 1 && images.length === 0) ? (
                <MarkdownContent text={part.text} streaming={last && (streaming || beingWritten)} />
              ) : null}
              {part.calls.length > 0 && <ToolSteps calls={part.calls} answerId={answerId} />}
            </Fragment>
          );
        })}
        {!streaming && !beingWritten && (
          <div className={classes.answerFooter}>
            {mark}
            {text !== '' && <AnswerActions text={text}>{actions}</AnswerActions>}
            {branchBar}
          </div>
        )}
        {images
          .filter((image) => isDisplayableImage(image.url))
          .map((image) => (
            <GeneratedImage key={image.url} url={image.url} name={image.name} />
          ))}
        <Citations citations={citations} />
        {beingWritten && (
          <Group gap={8} mt="xs" role="status" data-testid="being-written">
            <Loader size="xs" type="dots" aria-hidden="true" />
            <Text size="sm" c="dimmed">
              {t('message.beingWritten')}
            </Text>
          </Group>
        )}
        {interrupted && !error && (
          <Badge mt="xs" variant="light" color={BADGE_COLORS[interrupted]} data-testid="interrupted-badge">
            {t(`message.${interrupted}`)}
          </Badge>
        )}
        {error && (
          <Alert mt="xs" color="red" variant="light" data-testid="chat-error">
            {messageText(error)}
          </Alert>
        )}
        {onAskAgain && (
          <Button mt="xs" ml={error ? 0 : 'xs'} size="compact-sm" variant="light" onClick={onAskAgain} data-testid="ask-again">
            {t('message.askAgain')}
          </Button>
        )}
      </div>
    </div>
  );
}

/** What was asked, to send again: the member's message before an answer. */
const questionOf = (message: SessionMessage): Question => ({ text: message.text, files: message.files });

/** Answers cut off by their server or failed may be asked again; a stopped one was the member's choice. */
const mayAskAgain = (interrupted: SessionMessage['interrupted']) => interrupted === 'interrupted' || interrupted === 'failed';

/** One stored message; memoized so a long chat does not re-render while an answer streams. */
export const MessageRow = memo(function MessageRow({
  message,
  face,
  question,
  onAskAgain,
  feedbackSessionHash,
  branching,
}: {
  message: SessionMessage;
  face: ChatbotFace;
  /** The member's message this answer answers, when it is loaded. */
  question?: SessionMessage;
  onAskAgain?: AskAgain;
  /** The member's own session the answer belongs to, where they may rate it (not a shared or test chat). */
  feedbackSessionHash?: string;
  /** Regenerate, edit and versions; none in a shared session's read-only view. */
  branching?: BranchActions;
}) {
  if (message.speaker_type === 'member') return <StoredQuestion message={message} branching={branching} />;
  return (
    <ChatbotAnswer
      face={face}
      text={message.text}
      interrupted={message.interrupted}
      beingWritten={message.streaming}
      onAskAgain={onAskAgain && question && mayAskAgain(message.interrupted) ? () => onAskAgain(questionOf(question)) : undefined}
      citations={message.citations}
      toolCalls={message.tool_calls}
      answerId={message.id}
      images={answerImages(message.files)}
      reasoning={message.reasoning ? { text: message.reasoning, ms: message.reasoning_ms, active: false, messageId: message.id } : null}
      actions={feedbackSessionHash && <AnswerFeedback sessionHash={feedbackSessionHash} messageId={message.id} feedback={message.feedback} />}
      branchBar={branching && message.parent_id !== null && !message.streaming ? <AnswerBranchBar answer={message} actions={branching} /> : undefined}
      mark={message.imported && <ImportedMark />}
    />
  );
});

/**
 * The turn being answered (the member's message and the answer); the only part of the list that
 * re-renders on each batching tick, and memoized so the list's own renders (scrolling) skip it.
 */
export const StreamingTurn = memo(function StreamingTurn({ run, face, onAskAgain }: { run: ChatRun; face: ChatbotFace; onAskAgain?: AskAgain }) {
  const snapshot = useSyncExternalStore(run.subscribe, run.getSnapshot);
  const { t } = useTranslation('chat');
  const streaming = snapshot.status === 'sending' || snapshot.status === 'streaming';
  const interrupted = interruptedOf(snapshot);
  return (
    <div className={classes.turn}>
      <MemberBubble text={snapshot.memberText} files={snapshot.memberFiles} />
      {snapshot.rejected ? (
        <Alert color="red" variant="light" data-testid="chat-error" title={t('errors.not_sent')}>
          {messageText(snapshot.error ?? 'chat:errors.send_failed')}
        </Alert>
      ) : (
        <ChatbotAnswer
          face={face}
          text={snapshot.text}
          interrupted={interrupted}
          streaming={streaming}
          error={snapshot.error}
          onAskAgain={onAskAgain && mayAskAgain(interrupted) ? () => onAskAgain({ text: run.body.text ?? '', files: snapshot.memberFiles }) : undefined}
          citations={snapshot.citations}
          toolCalls={snapshot.toolCalls}
          answerId={snapshot.meta?.chatbot_message_id ?? null}
          images={snapshot.images.map((url) => ({ url }))}
          reasoning={
            snapshot.thinking
              ? {
                  text: snapshot.thinking,
                  ms: snapshot.thinkingMs,
                  active: streaming && snapshot.thinkingMs === null,
                  messageId: snapshot.meta?.chatbot_message_id ?? null,
                }
              : null
          }
        />
      )}
    </div>
  );
});
