import type { ReactNode } from 'react';
import { ActionIcon, Avatar, Button, Group, Stack, Title, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IconPlus, IconShare } from '../../components/icons';
import chatClasses from '../chat/chat.module.css';
import type { ChatbotFace } from '../chat/Messages';

interface PublicHeaderProps {
  face: ChatbotFace;
  title: string;
  titleTestId: string;
  /** The line under the title (who made or shared it). */
  subtitle: ReactNode;
  /** Opens the share dialog; no share button without it. */
  onShare?: () => void;
  /** The button that starts another chat; none without it. */
  newChat?: { label: string; onClick: () => void; disabled?: boolean; testId: string };
}

/** The header of a page a signed-out visitor reads (a shared session, a public chatbot): the chatbot's face, the title, share and new chat. */
export function PublicHeader({ face, title, titleTestId, subtitle, onShare, newChat }: PublicHeaderProps) {
  const { t } = useTranslation('sharing');
  return (
    <header className={chatClasses.header}>
      <Group justify="space-between" wrap="nowrap" gap="md">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <Avatar src={face.imageUrl} alt="" radius="xl" color="indigo">
            {face.name.slice(0, 1).toUpperCase()}
          </Avatar>
          <Stack gap={0} miw={0}>
            <Title order={1} fz="md" fw={650} lineClamp={1} data-testid={titleTestId}>
              {title}
            </Title>
            {subtitle}
          </Stack>
        </Group>
        {(onShare || newChat) && (
          <Group gap="xs" wrap="nowrap" style={{ flex: 'none' }}>
            {onShare && (
              <Tooltip label={t('share.open')}>
                <ActionIcon variant="subtle" color="gray" aria-label={t('share.open')} onClick={onShare} data-testid="share-session">
                  <IconShare size={16} />
                </ActionIcon>
              </Tooltip>
            )}
            {newChat && (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconPlus size={14} />}
                onClick={newChat.onClick}
                disabled={newChat.disabled}
                classNames={{ label: chatClasses.newSessionLabel, section: chatClasses.newSessionIcon }}
                data-testid={newChat.testId}
              >
                {newChat.label}
              </Button>
            )}
          </Group>
        )}
      </Group>
    </header>
  );
}
