import { useEffect, useRef, type KeyboardEvent } from 'react';
import { ActionIcon, Group, Textarea, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconArrowUp } from '../../components/icons';
import { MESSAGE_BOX_ID } from '../../components/mainContent';
import { WebSearchButton } from '../sources/WebSearchButton';
import { useActiveRunStore } from './activeRun';
import { AttachButton } from './attachments/AttachButton';
import { AttachmentChips } from './attachments/AttachmentChips';
import { hasImage, isBusy, useAttachmentsStore } from './attachments/attachmentsStore';
import classes from './chat.module.css';
import { PiiWarning } from './PiiWarning';
import { ModeBar, VisitorModeBar } from './modes/ModeBar';
import type { VisitorModes } from '../../../../shared/api';
import { PromptMenu } from './prompts/PromptMenu';
import { PromptVariablesDialog } from './prompts/PromptVariablesDialog';
import { usePromptInsertion } from './prompts/usePromptInsertion';

interface ComposerProps {
  onSend: (text: string) => void;
  onStop: () => void;
  streaming: boolean;
  disabled?: boolean;
  /** Changes when another conversation opens: the message box then takes focus. */
  conversationKey: string;
  /** Attaches files (button, pasted images) to the next message. */
  onAttach?: (files: File[]) => void;
  /**
   * A signed-out visitor of a shared chat: no attachments or personal-data warning, which read
   * member endpoints; modes only as `visitorModes` allows.
   */
  visitor?: boolean;
  /** What a visitor may use, as the public chatbot allows (thinking, web search, task modes). */
  visitorModes?: VisitorModes;
  /** False where the box is one panel of a larger page (the Studio's test chat): it takes focus only once used. */
  focusOnOpen?: boolean;
}

const StopIcon = () => (
  <svg width={14} height={14} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
    <rect x="5" y="5" width="14" height="14" rx="2" />
  </svg>
);

/** A field that takes typing: the member is writing there, so focus should stay. */
const isTextField = (element: Element | null) =>
  element instanceof HTMLTextAreaElement ||
  element instanceof HTMLSelectElement ||
  (element instanceof HTMLInputElement && !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'image', 'range', 'color'].includes(element.type)) ||
  (element instanceof HTMLElement && element.isContentEditable);

/**
 * Message box: Enter sends, Shift+Enter breaks the line, Escape stops a streaming answer. While
 * an IME composition is open (Korean, Japanese, Chinese input) Enter only commits it, never sends.
 * For members, `/` opens the prompt library's menu (usePromptInsertion), which has the keys first.
 *
 * Focus: opening a conversation puts it in the message box (once the box is enabled, which is why
 * autoFocus alone never worked), without robbing an open dialog or a field being typed in; Stop, and the end of an answer while
 * the Stop button had focus, bring it back there instead of leaving it on <body>.
 */
export function Composer({
  onSend,
  onStop,
  streaming,
  disabled = false,
  conversationKey,
  onAttach,
  visitor = false,
  visitorModes,
  focusOnOpen = true,
}: ComposerProps) {
  const { t } = useTranslation('chat');
  const draft = useActiveRunStore((state) => state.draft);
  const composing = useRef(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const focusedKey = useRef<string | null>(null);
  const hasStreamed = useRef(false);
  const attachments = useAttachmentsStore((state) => state.items);
  // Spec §5: text or an image; attached files must be uploaded and parsed first.
  const canSend = !disabled && !isBusy(attachments) && (draft.trim() !== '' || hasImage(attachments));
  const prompts = usePromptInsertion({ input, draft, setDraft: (text) => useActiveRunStore.setState({ draft: text }), enabled: !visitor });

  useEffect(() => {
    if (!focusOnOpen || disabled || focusedKey.current === conversationKey) return;
    focusedKey.current = conversationKey;
    // A dialog that is closing (deleting the open chat opens another) gets a second to go; one that
    // stays open (the announcement popup) keeps focus and hands it back itself. A field the member
    // went to while the chat loaded (Ctrl+K's search box) keeps it.
    const deadline = performance.now() + 1000;
    let frame = 0;
    const focusWhenFree = () => {
      const active = document.activeElement;
      if (active !== input.current && isTextField(active)) return;
      if (!active?.closest('[role="dialog"]')) input.current?.focus();
      else if (performance.now() < deadline) frame = requestAnimationFrame(focusWhenFree);
    };
    focusWhenFree();
    return () => cancelAnimationFrame(frame);
  }, [conversationKey, disabled, focusOnOpen]);

  // The Stop button leaves the page when the answer ends; focus it had falls back to the box.
  useEffect(() => {
    if (streaming) hasStreamed.current = true;
    if (!focusOnOpen && !hasStreamed.current) return;
    if (!streaming && !disabled && (document.activeElement === document.body || document.activeElement === null)) input.current?.focus();
  }, [streaming, disabled, focusOnOpen]);

  const stop = () => {
    onStop();
    input.current?.focus();
  };

  const send = () => {
    if (!canSend) return;
    onSend(draft.trim());
    useActiveRunStore.setState({ draft: '' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (prompts.onKeyDown(event)) return;
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
      {!visitor && <PiiWarning text={draft} />}
      {!visitor && <AttachmentChips />}
      <PromptMenu {...prompts.menu} />
      {/* The message box comes first, for Tab and for room on a phone; the tools follow under it. */}
      <Group className={classes.composer} gap="xs" align="flex-end" wrap="nowrap">
        <Textarea
          flex={1}
          variant="unstyled"
          autosize
          minRows={1}
          maxRows={8}
          ref={input}
          id={MESSAGE_BOX_ID}
          value={draft}
          disabled={disabled}
          placeholder={t('composer.placeholder')}
          aria-label={t('composer.label')}
          data-testid="composer-input"
          {...prompts.inputProps}
          onChange={(event) => {
            useActiveRunStore.setState({ draft: event.currentTarget.value });
            prompts.trackCaret(event);
          }}
          onKeyDown={onKeyDown}
          onPaste={(event) => {
            const images = Array.from(event.clipboardData.files).filter((file) => file.type.startsWith('image/'));
            if (images.length === 0 || !onAttach) return;
            event.preventDefault();
            onAttach(images);
          }}
          onCompositionStart={() => (composing.current = true)}
          onCompositionEnd={() => (composing.current = false)}
        />
        {streaming && (
          <Tooltip label={t('composer.stop')}>
            <ActionIcon size="lg" radius="xl" variant="default" onClick={stop} aria-label={t('composer.stop')} data-testid="stop-button">
              <StopIcon />
            </ActionIcon>
          </Tooltip>
        )}
        <Tooltip label={t('composer.send')}>
          <ActionIcon size="lg" radius="xl" onClick={send} disabled={!canSend} aria-label={t('composer.send')} data-testid="send-button">
            <IconArrowUp />
          </ActionIcon>
        </Tooltip>
      </Group>
      {!visitor && (
        <ModeBar>
          {onAttach && <AttachButton onFiles={onAttach} disabled={disabled} />}
          <WebSearchButton disabled={disabled} />
        </ModeBar>
      )}
      {!visitor && <PromptVariablesDialog prompt={prompts.filling} onCancel={prompts.cancelFilling} onInsert={prompts.fill} />}
      {visitor && visitorModes && (
        <VisitorModeBar modes={visitorModes}>
          <WebSearchButton disabled={disabled || !visitorModes.web_search} />
        </VisitorModeBar>
      )}
    </div>
  );
}
