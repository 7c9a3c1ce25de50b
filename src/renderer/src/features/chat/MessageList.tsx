import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { ActionIcon, Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionMessage } from '../../../../shared/api';
import type { ChatRun } from './chatRun';
import { MessageRow, StreamingTurn, type ChatbotFace } from './Messages';
import classes from './chat.module.css';

/** Distance from an edge, in pixels, that still counts as being at that edge. */
const BOTTOM_SLACK_PX = 48;
const LOAD_OLDER_THRESHOLD_PX = 160;

interface MessageListProps {
  messages: SessionMessage[];
  run: ChatRun | null;
  face: ChatbotFace;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** Shown when there is nothing to list. */
  empty: ReactNode;
}

/**
 * The scrolling thread. It follows the bottom while an answer streams unless the user scrolled
 * up, loads older history when the top comes near, and keeps the visible message in place when
 * older messages are inserted above it.
 */
export function MessageList({ messages, run, face, hasOlder, loadingOlder, onLoadOlder, empty }: MessageListProps) {
  const { t } = useTranslation('chat');
  const scrollerRef = useRef<HTMLDivElement>(null);
  const threadRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  /** Mirrors stickToBottom for rendering the jump button; changes only when the user crosses the edge. */
  const [awayFromBottom, setAwayFromBottom] = useState(false);
  /** Scroll height before older messages were requested, to restore the reading position. */
  const heightBeforeOlder = useRef<number | null>(null);

  const scrollToBottom = useCallback(() => {
    const scroller = scrollerRef.current;
    if (scroller) scroller.scrollTop = scroller.scrollHeight;
  }, []);

  const requestOlder = useCallback(() => {
    const scroller = scrollerRef.current;
    if (!scroller || !hasOlder || loadingOlder || heightBeforeOlder.current !== null) return;
    heightBeforeOlder.current = scroller.scrollHeight;
    onLoadOlder();
  }, [hasOlder, loadingOlder, onLoadOlder]);

  const onScroll = useCallback(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    stickToBottom.current = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < BOTTOM_SLACK_PX;
    setAwayFromBottom(!stickToBottom.current);
    if (scroller.scrollTop < LOAD_OLDER_THRESHOLD_PX) requestOlder();
  }, [requestOlder]);

  // A new message of the user always brings the bottom back into view.
  useLayoutEffect(() => {
    if (run) stickToBottom.current = true;
  }, [run]);

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    if (heightBeforeOlder.current !== null && !loadingOlder) {
      scroller.scrollTop += scroller.scrollHeight - heightBeforeOlder.current;
      heightBeforeOlder.current = null;
    } else if (stickToBottom.current) {
      scrollToBottom();
    }
    // A short first page does not fill the screen, so no scroll could ever ask for more.
    if (scroller.scrollHeight <= scroller.clientHeight) requestOlder();
  }, [messages, run, loadingOlder, scrollToBottom, requestOlder]);

  // Streaming text, images and code highlighting grow the thread without a React render here.
  useEffect(() => {
    const thread = threadRef.current;
    if (!thread || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (stickToBottom.current) scrollToBottom();
    });
    observer.observe(thread);
    return () => observer.disconnect();
  }, [scrollToBottom]);

  const jumpToLatest = () => {
    stickToBottom.current = true;
    setAwayFromBottom(false);
    scrollToBottom();
  };

  return (
    <div className={classes.listArea}>
      <div ref={scrollerRef} className={classes.scroller} onScroll={onScroll} data-testid="message-list">
        <div ref={threadRef} className={classes.thread} role="log" aria-label={t('message.thread')}>
          {loadingOlder && (
            <Center>
              <Loader size="sm" aria-label={t('message.loadingOlder')} />
            </Center>
          )}
          {messages.length === 0 && !run && empty}
          {messages.map((message) => (
            <MessageRow key={message.id} message={message} face={face} />
          ))}
          {run && <StreamingTurn key={run.id} run={run} face={face} />}
        </div>
      </div>
      {awayFromBottom && (
        <ActionIcon className={classes.jumpToLatest} variant="default" radius="xl" size="lg" onClick={jumpToLatest} aria-label={t('message.jumpToLatest')}>
          <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="M12 5v14M5 12l7 7 7-7" />
          </svg>
        </ActionIcon>
      )}
    </div>
  );
}
