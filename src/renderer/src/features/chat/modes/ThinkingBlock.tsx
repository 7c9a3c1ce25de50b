import { useEffect, useId, useRef, useState } from 'react';
import { Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './modes.module.css';

interface ThinkingBlockProps {
  text: string;
  /** How long the model reasoned; null while it still does (or when unknown). */
  ms: number | null;
  /** The model is reasoning now: the block is open; it folds once the answer starts. */
  active: boolean;
  /** The answer's id once known: a block opened again stays open when the streamed answer gives way to its stored copy. */
  messageId: number | null;
}

/** Answers whose reasoning the member opened again after it folded. */
const reopened = new Set<number>();

/** "Thought for N s" from milliseconds: whole seconds, at least 1. */
export const thoughtSeconds = (ms: number) => Math.max(1, Math.round(ms / 1000));

/**
 * The model's reasoning above its answer: open while it thinks, folded to "Thought for N s" once
 * the answer starts; the header is a button (Enter or Space) that shows or hides it again.
 */
export function ThinkingBlock({ text, ms, active, messageId }: ThinkingBlockProps) {
  const { t } = useTranslation('modes');
  const [open, setOpen] = useState(() => active || (messageId !== null && reopened.has(messageId)));
  const id = useId();
  // Opens when reasoning starts and folds when the answer starts; a remount keeps what the member chose.
  const wasActive = useRef(active);
  useEffect(() => {
    if (active !== wasActive.current) setOpen(active);
    wasActive.current = active;
  }, [active]);
  const toggle = () => {
    if (messageId !== null) {
      if (open) reopened.delete(messageId);
      else reopened.add(messageId);
    }
    setOpen(!open);
  };
  const label = active ? t('thinking.active') : ms !== null ? t('thinking.thought', { seconds: thoughtSeconds(ms) }) : t('thinking.done');
  return (
    <div className={classes.thinking} data-testid="thinking-block">
      <UnstyledButton className={classes.thinkingToggle} aria-expanded={open} aria-controls={id} onClick={toggle} data-testid="thinking-toggle">
        <svg
          className={classes.chevron}
          data-open={open || undefined}
          width={12}
          height={12}
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth={2.5}
          aria-hidden="true"
        >
          <path d="M9 6l6 6-6 6" />
        </svg>
        <Text span size="sm" c="dimmed" fs={active ? 'italic' : undefined}>
          {label}
        </Text>
      </UnstyledButton>
      {open && (
        <Text id={id} size="sm" c="dimmed" className={classes.thinkingText} data-testid="thinking-text">
          {text}
        </Text>
      )}
    </div>
  );
}
