import type { ReactNode } from 'react';
import { Button, Group, Select, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { chatbotsApi, taskModesApi, type TaskMode, type VisitorModes } from '../../../../../shared/api';
import { useEndpointQuery } from '../../../api/endpointHooks';
import { chooseTaskMode, toggleImage, toggleThinking, useModesStore } from './modesStore';
import { IconBulb, IconImage } from '../../../components/icons';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { localizedName } from '../../../../../shared/domain/language';

/** A mode toggle: a button whose pressed state screen readers announce. */
function ModeToggle({
  label,
  pressed,
  onToggle,
  icon,
  testId,
  unavailable,
}: {
  label: string;
  pressed: boolean;
  onToggle: () => void;
  icon: React.ReactNode;
  testId: string;
  /** Why the mode cannot be used here; the button stays focusable so the reason can be read. */
  unavailable?: string;
}) {
  const button = (
    <Button
      size="compact-sm"
      radius="xl"
      variant={pressed ? 'light' : 'subtle'}
      color={pressed ? undefined : 'gray'}
      leftSection={icon}
      aria-pressed={pressed}
      aria-disabled={unavailable ? true : undefined}
      data-disabled={unavailable ? true : undefined}
      onClick={unavailable ? undefined : onToggle}
      data-testid={testId}
    >
      {label}
    </Button>
  );
  return unavailable ? <Tooltip label={unavailable}>{button}</Tooltip> : button;
}

interface ModeTogglesProps {
  children?: ReactNode;
  canThink: boolean;
  /** Image generation is offered to members only. */
  withImage: boolean;
  taskModes: TaskMode[];
}

/** The tools under the message box: `children` first (attach, web search), then thinking, image and task modes. */
function ModeToggles({ children, canThink, withImage, taskModes }: ModeTogglesProps) {
  const { t } = useTranslation('modes');
  const language = useResolvedLanguage();
  const { thinking, image, taskModeId } = useModesStore();
  return (
    <Group gap={6} mt={6} data-testid="mode-bar" role="group" aria-label={t('bar.label')}>
      {children}
      <ModeToggle
        label={t('thinking.button')}
        pressed={thinking && canThink}
        onToggle={toggleThinking}
        icon={<IconBulb size={14} />}
        testId="thinking-mode-button"
        unavailable={canThink ? undefined : t('thinking.unavailable')}
      />
      {withImage && <ModeToggle label={t('image.button')} pressed={image} onToggle={toggleImage} icon={<IconImage size={14} />} testId="image-mode-button" />}
      {taskModes.length > 0 && (
        <Select
          size="xs"
          radius="xl"
          w={150}
          clearable
          placeholder={t('task.placeholder')}
          aria-label={t('task.label')}
          data={taskModes.map((mode) => ({ value: String(mode.id), label: localizedName(mode, language) }))}
          value={taskModeId === null ? null : String(taskModeId)}
          onChange={(value) => chooseTaskMode(value === null ? null : Number(value))}
          comboboxProps={{ withinPortal: true }}
          data-testid="task-mode-select"
        />
      )}
    </Group>
  );
}

/** A member's composer modes: the open chatbot's model decides thinking; the tenant's task modes. */
export function ModeBar({ children }: { children?: ReactNode }) {
  const { chatbotId } = useParams();
  const chatbot = useEndpointQuery(chatbotsApi.getChatbot, { params: { id: Number(chatbotId) } });
  // They rarely change, so kept for a while.
  const taskModes = useEndpointQuery(taskModesApi.listTaskModes, {}, { staleTime: 5 * 60_000, errorToast: true });
  return (
    <ModeToggles canThink={chatbot.data?.llm_model.supports_thinking ?? false} withImage taskModes={taskModes.data ?? []}>
      {children}
    </ModeToggles>
  );
}

/** A visitor's composer modes, as the public chatbot allows them (no member endpoint is read). */
export function VisitorModeBar({ children, modes }: { children?: ReactNode; modes: VisitorModes }) {
  return (
    <ModeToggles canThink={modes.thinking} withImage={false} taskModes={modes.task_modes}>
      {children}
    </ModeToggles>
  );
}
