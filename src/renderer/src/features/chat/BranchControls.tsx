import { useState, type KeyboardEvent } from 'react';
import { ActionIcon, Button, Group, Text, Textarea, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SessionMessage } from '../../../../shared/api';
import { IconChevron, IconEdit, IconRefresh } from '../../components/icons';
import classes from './chat.module.css';

/** What a stored message offers for branches: regenerate an answer, edit a question, show another version. */
export interface BranchActions {
  /** A new answer to the answer's question, beside it. */
  regenerate: (answer: SessionMessage) => void;
  /** The question edited and sent again, as a new branch from it. */
  edit: (question: SessionMessage, text: string) => void;
  /** Shows the `position`-th version of the message. */
  switchTo: (message: SessionMessage, position: number) => void;
  /** An answer is streaming or a switch is under way: nothing else may change the branch meanwhile. */
  busy: boolean;
}

/** "2 / 3" between arrows to the previous and next version; a named group, so a screen reader hears "Version 2 of 3". */
export function VersionSwitcher({ message, actions }: { message: SessionMessage; actions: BranchActions }) {
  const { t } = useTranslation('chat');
  const { sibling_count: count, sibling_position: position } = message;
  if (count < 2) return null;
  return (
    <Group gap={2} wrap="nowrap" role="group" aria-label={t('branch.versionOf', { position, count })} data-testid="version-switcher">
      <ActionIcon
        variant="subtle"
        color="gray"
        size="sm"
        aria-label={t('branch.previous')}
        disabled={actions.busy || position <= 1}
        onClick={() => actions.switchTo(message, position - 1)}
        data-version-button="previous"
      >
        <IconChevron size={15} className={classes.chevronPrevious} />
      </ActionIcon>
      <Text size="xs" c="dimmed" aria-hidden="true" className={classes.versionCount}>
        {position} / {count}
      </Text>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="sm"
        aria-label={t('branch.next')}
        disabled={actions.busy || position >= count}
        onClick={() => actions.switchTo(message, position + 1)}
        data-version-button="next"
      >
        <IconChevron size={15} className={classes.chevronNext} />
      </ActionIcon>
    </Group>
  );
}

/** Under a stored answer: its versions and the button that asks its question again. */
export function AnswerBranchBar({ answer, actions }: { answer: SessionMessage; actions: BranchActions }) {
  const { t } = useTranslation('chat');
  return (
    <Group gap={4} wrap="nowrap">
      <VersionSwitcher message={answer} actions={actions} />
      <Tooltip label={t('branch.regenerate')} withArrow>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          aria-label={t('branch.regenerate')}
          disabled={actions.busy}
          onClick={() => actions.regenerate(answer)}
          data-testid="regenerate"
        >
          <IconRefresh size={15} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** Under a stored question: its versions and the edit button. */
export function QuestionBranchBar({ question, actions, onEdit }: { question: SessionMessage; actions: BranchActions; onEdit: () => void }) {
  const { t } = useTranslation('chat');
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap" className={classes.questionTools}>
      <Tooltip label={t('branch.edit')} withArrow>
        <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('branch.edit')} disabled={actions.busy} onClick={onEdit} data-testid="edit-message">
          <IconEdit size={15} />
        </ActionIcon>
      </Tooltip>
      <VersionSwitcher message={question} actions={actions} />
    </Group>
  );
}

/**
 * The question being edited: Enter sends (Shift+Enter breaks the line, an open IME composition only
 * commits), Escape cancels, as in the composer.
 */
export function QuestionEditor({ text, onSend, onCancel }: { text: string; onSend: (text: string) => void; onCancel: () => void }) {
  const { t } = useTranslation('chat');
  const [draft, setDraft] = useState(text);
  const trimmed = draft.trim();
  const send = () => {
    if (trimmed !== '') onSend(trimmed);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      return onCancel();
    }
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    send();
  };
  return (
    <div className={classes.questionEditor} data-testid="message-editor">
      <Textarea
        autosize
        minRows={2}
        maxRows={10}
        autoFocus
        value={draft}
        aria-label={t('branch.editLabel')}
        onChange={(event) => setDraft(event.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      <Group gap="xs" justify="flex-end" mt="xs">
        <Button size="compact-sm" variant="default" onClick={onCancel}>
          {t('branch.cancel')}
        </Button>
        <Button size="compact-sm" onClick={send} disabled={trimmed === ''} data-testid="send-edit">
          {t('branch.send')}
        </Button>
      </Group>
    </div>
  );
}
