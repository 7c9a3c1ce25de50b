import { Badge, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Prompt } from '../../../../../shared/api';
import classes from './promptMenu.module.css';

/** The shown start of a prompt's text: the whole of it would make every option a paragraph for a screen reader. */
const SNIPPET_LENGTH = 90;

/** The listbox of the `/` menu (usePromptInsertion): the matching prompts, the active one marked. */
export function PromptMenu({
  open,
  listboxId,
  matches,
  activeIndex,
  optionId,
  choose,
  hover,
}: {
  open: boolean;
  listboxId: string;
  matches: Prompt[];
  activeIndex: number;
  optionId: (prompt: Prompt) => string;
  choose: (prompt: Prompt) => void;
  hover: (index: number) => void;
}) {
  const { t } = useTranslation('prompts');
  return (
    <div className={classes.anchor}>
      {open && (
        <Paper role="listbox" id={listboxId} aria-label={t('menu.label')} className={classes.menu} shadow="md" withBorder data-testid="prompt-menu">
          {matches.map((prompt, index) => (
            <div
              key={prompt.id}
              id={optionId(prompt)}
              role="option"
              aria-selected={index === activeIndex}
              className={classes.option}
              // The message box keeps focus (and its caret) while the mouse picks.
              onMouseDown={(event) => event.preventDefault()}
              onMouseEnter={() => hover(index)}
              onClick={() => choose(prompt)}
            >
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" fw={500} truncate>
                  {prompt.name}
                </Text>
                <Badge size="xs" variant="light" color={prompt.scope === 'tenant' ? 'indigo' : 'gray'} style={{ flex: 'none' }}>
                  {t(prompt.scope === 'tenant' ? 'menu.tenant' : 'menu.personal')}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed" className={classes.snippet}>
                {prompt.text.length > SNIPPET_LENGTH ? `${prompt.text.slice(0, SNIPPET_LENGTH)}…` : prompt.text}
              </Text>
            </div>
          ))}
        </Paper>
      )}
    </div>
  );
}
