import { type ReactNode, useState } from 'react';
import { ActionIcon, Button, Card, Group, Modal, type MantineSize, Skeleton, Table, Text, Title, Tooltip } from '@mantine/core';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ActionsHeader } from '../../components/list/ListParts';
import { IconEdit, IconPlus, IconTrash } from '../../components/icons';

/**
 * The two shells of the console's settings cards: `SettingsListCard` (a list with Add, an
 * add/edit dialog and a confirmed delete: custom fields, policies, task modes) and
 * `SettingsFormCard` (one form saved at once: branding, personal data), with its `FormSaveButton`.
 */

/** The last cell of a settings row: edit and delete, each named after the item. */
function RowActions({ editLabel, deleteLabel, onEdit, onDelete }: { editLabel: string; deleteLabel: string; onEdit: () => void; onDelete: () => void }) {
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

interface SettingsListCardProps<T extends { id: number }> {
  /** Id of the card's heading (the section is labelled by it). */
  id: string;
  title: string;
  description: string;
  addLabel: string;
  addTestId: string;
  emptyText: string;
  /** The items' query: a skeleton while pending. */
  query: { isPending: boolean; data: T[] | undefined };
  /** The table: its header cells (an actions column follows them) and the name of that column. */
  table: { minWidth: number; testId: string; rowTestId?: string; head: ReactNode; actionsLabel: string };
  /** A row's cells before its edit and delete buttons. */
  cells: (item: T) => ReactNode;
  actionLabels: (item: T) => { edit: string; delete: string };
  /** The add and edit dialog: its title, and the form for the item (null: a new one) that calls `close` when done. */
  editor: { title: (isNew: boolean) => string; size?: MantineSize; form: (item: T | null, close: () => void) => ReactNode };
  /** The delete confirmation: `confirm` runs the delete and calls `close` once it settled. */
  deletion: {
    title: (item: T | null) => string;
    body: (item: T | null) => string;
    cancelLabel: string;
    confirmLabel: string;
    pending: boolean;
    confirm: (item: T, close: () => void) => void;
  };
}

/** A settings list of the console: heading, description, Add, then loading, empty or the table; its add/edit dialog and delete confirmation. */
export function SettingsListCard<T extends { id: number }>({
  id,
  title,
  description,
  addLabel,
  addTestId,
  emptyText,
  query,
  table,
  cells,
  actionLabels,
  editor,
  deletion,
}: SettingsListCardProps<T>) {
  // null: closed; 'new': the create dialog; an item: its edit dialog.
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [pendingDelete, setPendingDelete] = useState<T | null>(null);
  const closeEditor = () => setEditing(null);
  const items = query.data ?? [];
  return (
    <>
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
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid={addTestId}>
            {addLabel}
          </Button>
        </Group>
        {query.isPending ? (
          <Skeleton h={120} />
        ) : items.length === 0 ? (
          <Text c="dimmed" size="sm" ta="center" py="xl">
            {emptyText}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={table.minWidth}>
            <Table verticalSpacing="xs" data-testid={table.testId}>
              <Table.Thead>
                <Table.Tr>
                  {table.head}
                  <ActionsHeader label={table.actionsLabel} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((item) => {
                  const labels = actionLabels(item);
                  return (
                    <Table.Tr key={item.id} data-testid={table.rowTestId}>
                      {cells(item)}
                      <RowActions editLabel={labels.edit} deleteLabel={labels.delete} onEdit={() => setEditing(item)} onDelete={() => setPendingDelete(item)} />
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      <Modal opened={editing !== null} onClose={closeEditor} size={editor.size} title={editor.title(editing === 'new')}>
        {editing !== null && editor.form(editing === 'new' ? null : editing, closeEditor)}
      </Modal>
      <ConfirmDialog
        opened={pendingDelete !== null}
        title={deletion.title(pendingDelete)}
        body={deletion.body(pendingDelete)}
        cancelLabel={deletion.cancelLabel}
        confirmLabel={deletion.confirmLabel}
        loading={deletion.pending}
        onCancel={() => setPendingDelete(null)}
        onConfirm={() => pendingDelete && deletion.confirm(pendingDelete, () => setPendingDelete(null))}
      />
    </>
  );
}

interface SettingsFormCardProps<T> {
  /** Id of the card's heading (the section is labelled by it). */
  id: string;
  title: string;
  description: string;
  /** The settings' query: a skeleton of `skeletonHeight` until it has data (its own toast says when it fails). */
  query: { data: T | undefined };
  skeletonHeight: number;
  /** The form, given the loaded settings. */
  children: (data: T) => ReactNode;
}

/** A settings card holding one form: heading, description, then the form once the settings are loaded. */
export function SettingsFormCard<T>({ id, title, description, query, skeletonHeight, children }: SettingsFormCardProps<T>) {
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {description}
      </Text>
      {query.data ? children(query.data) : <Skeleton h={skeletonHeight} />}
    </Card>
  );
}

/** A settings form's submit button, at its end: enabled once something changed. */
export function FormSaveButton({ label, dirty, loading }: { label: string; dirty: boolean; loading: boolean }) {
  return (
    <Group justify="flex-end">
      <Button type="submit" loading={loading} disabled={!dirty}>
        {label}
      </Button>
    </Group>
  );
}
