import { useRef, type KeyboardEvent } from 'react';
import { ActionIcon, Group, Textarea, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useActiveRunStore } from './activeRun';
import classes from './chat.module.css';

interface ComposerProps {
  onSend: (text: string) => void;
  onStop: () => void;
  streaming: boolean;
  disabled?: boolean;
}

const SendIcon = () => (
  <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d="M12 19V5M5 12l7-7 7 7" />
  </svg>
);

const StopIcon = () => (
  <svg width={14} height={14} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
    <rect x="5" y="5" width="14" height="14" rx="2" />
  </svg>
);

/**
 * Message box: Enter sends, Shift+Enter breaks the line, Escape stops a streaming answer. While
 * an IME composition is open (Korean, Japanese, Chinese input) Enter only commits it, never sends.
 */
export function Composer({ onSend, onStop, streaming, disabled = false }: ComposerProps) {
  const { t } = useTranslation('chat');
  const draft = useActiveRunStore((state) => state.draft);
  const composing = useRef(false);
  const canSend = !disabled && draft.trim() !== '';

  const send = () => {
    if (!canSend) return;
    onSend(draft.trim());
    useActiveRunStore.setState({ draft: '' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape' && streaming) {
      event.preventDefault();
      return onStop();
    }
    if (event.key !== 'Enter' || event.shiftKey) return;
    // keyCode 229 is the Enter that Safari delivers right after compositionend.
    if (composing.current || event.nativeEvent.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    send();
  };

  return (
    <div className={classes.composerWrap}>
      <Group className={classes.composer} gap="xs" align="flex-end" wrap="nowrap">
        <Textarea
          flex={1}
          variant="unstyled"
          autosize
          minRows={1}
          maxRows={8}
          value={draft}
          disabled={disabled}
          autoFocus
          placeholder={t('composer.placeholder')}
          aria-label={t('composer.label')}
          data-testid="composer-input"
          onChange={(event) => useActiveRunStore.setState({ draft: event.currentTarget.value })}
          onKeyDown={onKeyDown}
          onCompositionStart={() => (composing.current = true)}
          onCompositionEnd={() => (composing.current = false)}
        />
        {streaming && (
          <Tooltip label={t('composer.stop')}>
            <ActionIcon size="lg" radius="xl" variant="default" onClick={onStop} aria-label={t('composer.stop')} data-testid="stop-button">
              <StopIcon />
            </ActionIcon>
          </Tooltip>
        )}
        <Tooltip label={t('composer.send')}>
          <ActionIcon size="lg" radius="xl" onClick={send} disabled={!canSend} aria-label={t('composer.send')} data-testid="send-button">
            <SendIcon />
          </ActionIcon>
        </Tooltip>
      </Group>
    </div>
  );
}
