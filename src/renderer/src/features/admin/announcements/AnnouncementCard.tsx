import { ActionIcon, Card, Group, Switch, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Announcement } from '../../../../../shared/api';
import { formatDate } from '../../../i18n/formatDate';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { MarkdownContent } from '../../../components/MarkdownContent';
import { IconEdit, IconTrash } from '../../../components/icons';
import { CollapsibleContent } from './CollapsibleContent';

interface AnnouncementCardProps {
  announcement: Announcement;
  onToggleActive: (isActive: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
}

export function AnnouncementCard({ announcement, onToggleActive, onEdit, onDelete }: AnnouncementCardProps) {
  const { t } = useTranslation('admin');
  const language = useResolvedLanguage();
  return (
    <Card withBorder radius="lg" padding="lg" shadow="xs" data-testid="announcement-card">
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Text size="sm" fw={600} c="dimmed" data-testid="announcement-date">
          {formatDate(announcement.created_at, language)}
        </Text>
        <Group gap={6} wrap="nowrap">
          {/* The label says the state, not the action: only the one announcement members see is live (spec §4). */}
          <Switch
            checked={announcement.is_active}
            onChange={(event) => onToggleActive(event.currentTarget.checked)}
            label={
              <Text component="span" size="sm" fw={600} c={announcement.is_active ? 'teal.9' : 'dimmed'}>
                {t(announcement.is_active ? 'announcements.status_live' : 'announcements.status_off')}
              </Text>
            }
            labelPosition="left"
            size="sm"
            color="teal"
            mr="xs"
            data-testid="announcement-status"
          />
          <Tooltip label={t('announcements.edit')}>
            <ActionIcon variant="subtle" color="gray" onClick={onEdit} aria-label={t('announcements.edit')}>
              <IconEdit size={17} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('announcements.delete')}>
            <ActionIcon variant="subtle" color="red" onClick={onDelete} aria-label={t('announcements.delete')}>
              <IconTrash size={17} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <CollapsibleContent>
        <MarkdownContent markdown={announcement.content} />
      </CollapsibleContent>
    </Card>
  );
}
