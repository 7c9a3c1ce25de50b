import type { ReactNode } from 'react';
import { ActionIcon, Button, Card, Group, Skeleton, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconEdit, IconPlus, IconTrash } from '../../../components/icons';

interface SettingsListCardProps {
  /** Id of the card's heading (the section is labelled by it). */
  id: string;
  title: string;
  description: string;
  addLabel: string;
  addTestId: string;
  onAdd: () => void;
  pending: boolean;
  empty: boolean;
  emptyText: string;
  /** The table of the items, shown when there are some. */
  children: ReactNode;
}

/** A settings list of the console (custom fields, policies): heading, description, Add, then loading, empty or the table. */
export function SettingsListCard({ id, title, description, addLabel, addTestId, onAdd, pending, empty, emptyText, children }: SettingsListCardProps) {
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={id}>
      <Group justify="space-between" align="flex-start" mb="md" wrap="wrap">
        <div>
          <Title order={2} size="h4" id={id}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={onAdd} data-testid={addTestId}>
          {addLabel}
        </Button>
      </Group>
      {pending ? (
        <Skeleton h={120} />
      ) : empty ? (
        <Text c="dimmed" size="sm" ta="center" py="xl">
          {emptyText}
        </Text>
      ) : (
        children
      )}
    </Card>
  );
}

/** The last cell of a settings row: edit and delete, each named after the item. */
export function RowActions({ editLabel, deleteLabel, onEdit, onDelete }: { editLabel: string; deleteLabel: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
      <Tooltip label={editLabel}>
        <ActionIcon variant="subtle" color="gray" aria-label={editLabel} onClick={onEdit}>
          <IconEdit size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={deleteLabel}>
        <ActionIcon variant="subtle" color="red" aria-label={deleteLabel} onClick={onDelete}>
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    </Table.Td>
  );
}
