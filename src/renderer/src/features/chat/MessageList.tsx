import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { ActionIcon, Loader } from '@mantine/core';
import { type Virtualizer, useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { SessionMessage } from '../../../../shared/api';
import { IconArrowDown } from '../../components/icons';
import type { ChatRun } from './chatRun';
import { type AskAgain, MessageRow, StreamingTurn, type ChatbotFace } from './Messages';
import type { BranchActions } from './BranchControls';
import classes from './chat.module.css';

/** Distance from an edge, in pixels, that still counts as being at that edge. */
const BOTTOM_SLACK_PX = 48;
const LOAD_OLDER_THRESHOLD_PX = 160;
/** Space between rows and around the thread; the thread's CSS has the horizontal padding. */
const ROW_GAP_PX = 18;
const THREAD_PADDING_TOP_PX = 24;
const THREAD_PADDING_BOTTOM_PX = 16;
/** Rows rendered beyond each edge of the screen: enough for a fast flick, few enough to stay light. */
const OVERSCAN_ROWS = 6;
const neverAdjustScroll = () => false;
/** First guesses before a row is measured; closer guesses mean smaller corrections. */
const estimateRowPx = (message: SessionMessage) => (message.speaker_type === 'member' ? 64 : 180);

/**
 * Scrolls a row to the middle of the screen once it is loaded, once per `key`, then leaves the reader
 * free: a search result's message, and the version a switch showed (each switch a new key).
 */
function useCenterOnce(
  target: { key: unknown; index: number } | undefined,
  {
    virtualizer,
    hasLayout,
    follow,
    onScroll,
  }: { virtualizer: Virtualizer<HTMLDivElement, Element>; hasLayout: boolean; follow: (following: boolean) => void; onScroll: () => void },
  onCentered?: () => void,
) {
  const centered = useRef<unknown>(undefined);
  const { key, index = -1 } = target ?? {};
  useLayoutEffect(() => {
    if (index < 0 || centered.current === key) return;
    centered.current = key;
    follow(false);
    if (hasLayout) virtualizer.scrollToIndex(index, { align: 'center' });
    // Whether the bottom is out of view (the jump button), also where the row was in view already and nothing scrolled.
    requestAnimationFrame(onScroll);
    onCentered?.();
    // Only a new key, or its row arriving, scrolls; the rest is read as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, index]);
}

interface MessageListProps {
  messages: SessionMessage[];
  run: ChatRun | null;
  face: ChatbotFace;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** Shown when there is nothing to list. */
  empty: ReactNode;
  /** Offers to send the question of a cut-off or failed answer again. */
  onAskAgain?: AskAgain;
  /** A message to show instead of the bottom (a search result): scrolled to the middle, marked and focused, once it is loaded. */
  focusMessageId?: number;
  /** A message to scroll to the middle of the screen once it is loaded, once per object: the version a switch just showed. */
  reveal?: { messageId: number };
  /** The member's own session: its answers offer thumbs up and down. */
  feedbackSessionHash?: string;
  /** Regenerate, edit and versions of the stored messages (not in a shared session's view). */
  branching?: BranchActions;
}

/**
 * The scrolling thread, virtualised: only the rows near the screen are in the DOM, so a chat of
 * any length costs the same. It follows the bottom while an answer streams unless the user
 * scrolled up, loads older history when the top comes near, and keeps the message being read in
 * place when older messages are inserted above it (the virtualizer anchors to the end).
 */
export function MessageList({
  messages,
  run,
  face,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  empty,
  onAskAgain,
  focusMessageId,
  reveal,
  feedbackSessionHash,
  branching,
}: MessageListProps) {
  const { t } = useTranslation('chat');
  const scrollerRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  /** Mirrors stickToBottom for rendering the jump button; changes only when the user crosses the edge. */
  const [awayFromBottom, setAwayFromBottom] = useState(false);
  /** Set from a request for older messages until the request has settled. */
  const olderRequested = useRef(false);
  const [hasLayout, setHasLayout] = useState(true);

  // The turn being answered is not a row: it follows the rows in the page's flow, so a batch of
  // its text is one render and one frame, not a second render of the list to measure it (0086).
  const rowCount = messages.length;
  const getItemKey = useCallback((index: number) => messages[index]!.id, [messages]);
  const estimateSize = useCallback((index: number) => estimateRowPx(messages[index]!), [messages]);
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollerRef.current,
    getItemKey,
    estimateSize,
    overscan: OVERSCAN_ROWS,
    gap: ROW_GAP_PX,
    paddingStart: THREAD_PADDING_TOP_PX,
    paddingEnd: THREAD_PADDING_BOTTOM_PX,
    // Rows inserted above keep the row at the top of the screen where it was.
    anchorTo: 'end',
    // Renders after a scroll or a measurement are batched instead of one synchronous render per
    // row (long tasks of 100-300 ms when a page of history arrived, see bench:chat). Rows are still
    // measured in the frame they change (not deferred to the next one), so the bottom stays
    // pinned while the answer grows.
    useFlushSync: false,
    // Its end is its last row; with an answer being written below the rows that is not the page's
    // end, and keeping it there would scroll the answer away. The reader is followed by followGrowth.
    scrollEndThreshold: run ? -1 : 1,
  });

  /**
   * Whether the reader follows the bottom. Following, a row measured above the screen moves
   * nothing by itself (the virtualizer would scroll by its change of size, up and away from an
   * answer written below the rows): the rows box resizes and followGrowth pins the bottom again.
   * Reading higher up, the virtualizer keeps the row being read in place.
   */
  const follow = useCallback(
    (following: boolean) => {
      stickToBottom.current = following;
      virtualizer.shouldAdjustScrollPositionOnItemSizeChange = following ? neverAdjustScroll : undefined;
    },
    [virtualizer],
  );
  /**
   * Without layout (jsdom: a scroller of height 0 at mount) nothing can be measured or scrolled:
   * every row is rendered, in order.
   */
  const rows = hasLayout ? virtualizer.getVirtualItems() : Array.from({ length: rowCount }, (_, index) => ({ index, key: getItemKey(index), start: 0 }));

  const scrollToBottom = useCallback(() => {
    const scroller = scrollerRef.current;
    if (scroller) scroller.scrollTop = scroller.scrollHeight;
  }, []);

  const requestOlder = useCallback(() => {
    if (!hasOlder || loadingOlder || olderRequested.current) return;
    olderRequested.current = true;
    onLoadOlder();
  }, [hasOlder, loadingOlder, onLoadOlder]);

  const onScroll = useCallback(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    follow(scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < BOTTOM_SLACK_PX);
    setAwayFromBottom(!stickToBottom.current);
    if (scroller.scrollTop < LOAD_OLDER_THRESHOLD_PX) requestOlder();
  }, [requestOlder, follow]);

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (scroller && scroller.clientHeight === 0) setHasLayout(false);
    follow(stickToBottom.current);
  }, [follow]);

  // Before the effect that keeps the bottom in view, which they turn off.
  const rowOf = (key: unknown, messageId: number) => ({ key, index: messages.findIndex((message) => message.id === messageId) });
  const thread = { virtualizer, hasLayout, follow, onScroll };
  useCenterOnce(focusMessageId === undefined ? undefined : rowOf(focusMessageId, focusMessageId), thread, () => {
    // Focus lands once the row is rendered, so a screen reader reads the message found.
    requestAnimationFrame(() => scrollerRef.current?.querySelector<HTMLElement>(`[data-message-id="${focusMessageId}"]`)?.focus({ preventScroll: true }));
  });
  useCenterOnce(reveal === undefined ? undefined : rowOf(reveal, reveal.messageId), thread);

  // A new message of the user always brings the bottom back into view.
  useLayoutEffect(() => {
    if (run) follow(true);
  }, [run, follow]);

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    if (olderRequested.current && !loadingOlder) olderRequested.current = false;
    if (stickToBottom.current) scrollToBottom();
    // A short first page does not fill the screen, so no scroll could ever ask for more.
    if (scroller.scrollHeight <= scroller.clientHeight) requestOlder();
  }, [messages, run, loadingOlder, scrollToBottom, requestOlder]);

  /**
   * Follows the bottom when an element grows: the rows box (rows measured after their first
   * guess, images, code highlighting) and the turn being answered below it.
   */
  const followGrowth = useCallback(
    (element: HTMLElement | null) => {
      if (!element || typeof ResizeObserver === 'undefined') return;
      const observer = new ResizeObserver(() => {
        if (stickToBottom.current) scrollToBottom();
      });
      observer.observe(element);
      return () => observer.disconnect();
    },
    [scrollToBottom],
  );

  const jumpToLatest = () => {
    follow(true);
    setAwayFromBottom(false);
    scrollToBottom();
  };

  return (
    <div className={classes.listArea}>
      {loadingOlder && <Loader className={classes.olderLoader} size="sm" aria-label={t('message.loadingOlder')} />}
      <div ref={scrollerRef} className={classes.scroller} onScroll={onScroll} data-testid="message-list">
        <div className={classes.thread} role="log" aria-label={t('message.thread')}>
          {rowCount === 0 && !run && <div className={classes.emptyThread}>{empty}</div>}
          {rowCount > 0 && (
            <div ref={followGrowth} className={classes.rows} style={{ height: virtualizer.getTotalSize() }}>
              {rows.map((row) => {
                const message = messages[row.index]!;
                const previous = messages[row.index - 1];
                return (
                  <div
                    key={row.key}
                    ref={virtualizer.measureElement}
                    data-index={row.index}
                    data-message-id={message.id}
                    tabIndex={message.id === focusMessageId ? -1 : undefined}
                    className={`${classes.row} ${message.id === focusMessageId ? classes.foundRow : ''}`}
                    style={{ transform: `translateY(${row.start}px)` }}
                  >
                    <MessageRow
                      message={message}
                      face={face}
                      question={previous?.speaker_type === 'member' ? previous : undefined}
                      onAskAgain={onAskAgain}
                      feedbackSessionHash={feedbackSessionHash}
                      branching={branching}
                    />
                  </div>
                );
              })}
            </div>
          )}
          {run && (
            <div ref={followGrowth} className={rowCount > 0 ? classes.turnAfterRows : classes.turnAlone}>
              <StreamingTurn run={run} face={face} onAskAgain={onAskAgain} />
            </div>
          )}
        </div>
      </div>
      {awayFromBottom && (
        <ActionIcon className={classes.jumpToLatest} variant="default" radius="xl" size="lg" onClick={jumpToLatest} aria-label={t('message.jumpToLatest')}>
          <IconArrowDown />
        </ActionIcon>
      )}
    </div>
  );
}
