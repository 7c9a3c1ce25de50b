import { useEffect, useRef, useState } from 'react';
import { Box, Button, Card, EmptyState, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { keepPreviousData } from '@tanstack/react-query';
import { adminAnnouncementsApi, type Announcement } from '../../../../../shared/api';
import { ANNOUNCEMENTS_PAGE_SIZE } from '../../../../../shared/domain/pagination';
import { useEndpointQuery } from '../../../api/endpointHooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { IconMegaphone, IconPlus } from '../../../components/icons';
import { useListState } from '../../../components/list/useListState';
import { useMinimumLoading } from '../../../components/useMinimumLoading';
import { useDocumentTitle } from '../../../components/useDocumentTitle';
import { focusOrMain } from '../../../components/mainContent';
import { AnnouncementCard } from './AnnouncementCard';
import { AnnouncementEditorDialog, type EditorMode } from './AnnouncementEditorDialog';
import { useAnnouncementMutations } from './useAnnouncementMutations';
import { ListPagination } from '../../../components/list/ListParts';

function CardSkeletons() {
  return (
    <Stack gap="md" data-testid="announcements-skeleton">
      {[0, 1, 2].map((index) => (
        <Card key={index} withBorder radius="lg" padding="lg">
          <Group justify="space-between" mb="md">
            <Skeleton h={14} w={120} />
            <Skeleton h={20} w={140} />
          </Group>
          <Skeleton h={12} mb={8} />
          <Skeleton h={12} mb={8} w="85%" />
          <Skeleton h={12} w="60%" />
        </Card>
      ))}
    </Stack>
  );
}

/** Admin announcements (spec §2): cards, active switch, dialogs, pagination when needed. */
export default function AnnouncementsPage() {
  const { t } = useTranslation('admin');
  const listState = useListState({ size: ANNOUNCEMENTS_PAGE_SIZE });
  const { page, setPage } = listState;
  const list = useEndpointQuery(
    adminAnnouncementsApi.listAdminAnnouncements,
    { query: { page, size: listState.size } },
    { placeholderData: keepPreviousData, errorToast: { overrides: [{ key: 'admin:toasts.announcements_page_error' }] } },
  );
  const { create, update, toggle, remove } = useAnnouncementMutations();
  const [editor, setEditor] = useState<EditorMode | null>(null);
  const [pendingDelete, setPendingDelete] = useState<Announcement | null>(null);
  const showSkeleton = useMinimumLoading(list.isPending || list.isPlaceholderData);
  const newButton = useRef<HTMLButtonElement>(null);
  // A deleted card takes the dialog's trigger with it: focus then continues from New announcement.
  const deleted = useRef(false);
  useDocumentTitle(t('announcements.title'));

  // Deleting the last card of the last page leaves an empty page: step back to the one before.
  const totalPages = list.data?.total_pages ?? 0;
  useEffect(() => {
    if (list.data && page > 1 && page > totalPages) setPage(Math.max(totalPages, 1));
  }, [list.data, page, totalPages, setPage]);

  function submitEditor(content: string, isActive: boolean) {
    if (!editor) return;
    const close = { onSuccess: () => setEditor(null) };
    if (editor.kind === 'create') create.mutate({ body: { content, is_active: isActive } }, close);
    else update.mutate({ params: { id: editor.id }, body: { content } }, close);
  }

  const items = list.data?.items ?? [];
  return (
    <Box px={{ base: 'md', sm: 40 }} py={32} maw={960}>
      <Group justify="space-between" align="flex-end" mb="xl">
        <Stack gap={4}>
          <Title order={1} size="h2">
            {t('announcements.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('announcements.description')}
          </Text>
        </Stack>
        <Button ref={newButton} leftSection={<IconPlus size={16} />} onClick={() => setEditor({ kind: 'create' })}>
          {t('announcements.new')}
        </Button>
      </Group>

      {showSkeleton ? (
        <CardSkeletons />
      ) : items.length === 0 ? (
        <EmptyState
          icon={<IconMegaphone size={28} />}
          title={t('announcements.empty_title')}
          description={t('announcements.empty_description')}
          variant="light"
          py={64}
        />
      ) : (
        <Stack gap="md">
          {items.map((announcement) => (
            <AnnouncementCard
              key={announcement.id}
              announcement={announcement}
              onToggleActive={(isActive) => toggle.mutate({ params: { id: announcement.id }, body: { is_active: isActive } })}
              onEdit={() => setEditor({ kind: 'edit', id: announcement.id, content: announcement.content })}
              onDelete={() => setPendingDelete(announcement)}
            />
          ))}
        </Stack>
      )}

      <ListPagination list={listState} totalPages={totalPages} mt="xl" />

      <AnnouncementEditorDialog mode={editor} saving={create.isPending || update.isPending} onClose={() => setEditor(null)} onSubmit={submitEditor} />
      <ConfirmDialog
        opened={pendingDelete !== null}
        title={t('announcements.delete_title')}
        body={t('announcements.delete_body')}
        cancelLabel={t('announcements.cancel')}
        confirmLabel={t('announcements.delete')}
        loading={remove.isPending}
        onCancel={() => setPendingDelete(null)}
        onConfirm={() =>
          pendingDelete &&
          remove.mutate(
            { params: { id: pendingDelete.id } },
            {
              onSuccess: () => (deleted.current = true),
              onSettled: () => setPendingDelete(null),
            },
          )
        }
        onClosed={() => {
          if (!deleted.current) return;
          deleted.current = false;
          focusOrMain(newButton.current);
        }}
      />
    </Box>
  );
}
