import { QueryError } from '../../../components/QueryError';
import { useState } from 'react';
import { Badge, Button, Drawer, Group, Pagination, Skeleton, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminMemberGroupsApi, type AdminMemberGroup, type MemberGroupMember } from '../../../../../shared/api';
import { useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { showToast } from '../../../components/toast';

/** A group's members, each removable (with confirmation); whose default group it is fall back to the default group. */
export function GroupMembersDrawer({
  group,
  groupName,
  onClose,
  onChanged,
}: {
  group: AdminMemberGroup | null;
  groupName: string;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation('adminGroups');
  return (
    <Drawer
      opened={group !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={t('members_title', { name: groupName })}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {group && <MemberList key={group.id} group={group} onChanged={onChanged} />}
    </Drawer>
  );
}

function MemberList({ group, onChanged }: { group: AdminMemberGroup; onChanged: () => void }) {
  const { t } = useTranslation('adminGroups');
  const [page, setPage] = useState(1);
  const list = useEndpointQuery(
    adminMemberGroupsApi.listMemberGroupMembers,
    { params: { id: group.id }, query: { page, size: 10 } },
    { placeholderData: keepPreviousData },
  );
  const [removing, setRemoving] = useState<MemberGroupMember | null>(null);
  const remove = useEndpointMutation(adminMemberGroupsApi.removeMemberGroupMember, {
    onSuccess: () => showToast('success', t('member_removed')),
    onSettled: () => {
      setRemoving(null);
      void list.refetch();
      onChanged();
    },
  });
  if (list.isPending) return <Skeleton h={160} />;
  if (list.isError) {
    return <QueryError query={list} endpoint={adminMemberGroupsApi.listMemberGroupMembers} />;
  }
  const items = list.data.items;
  return (
    <Stack gap="sm">
      {items.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          {t('members_empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table verticalSpacing="xs" data-testid="group-members">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('member_name')}</Table.Th>
                <Table.Th>{t('member_email')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((member) => (
                <Table.Tr key={member.id}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm">{member.name}</Text>
                      {member.is_default_group && (
                        <Badge size="xs" variant="light" color="gray">
                          {t('their_default')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{member.email}</Table.Td>
                  <Table.Td ta="right">
                    <Button size="xs" variant="subtle" color="red" onClick={() => setRemoving(member)} aria-label={t('remove_named', { name: member.name })}>
                      {t('remove')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data.total_pages > 1 && (
        <Group justify="center">
          <Pagination total={list.data.total_pages} value={page} onChange={setPage} />
        </Group>
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={t('remove_title')}
        body={t(removing?.is_default_group ? 'remove_body_default' : 'remove_body', { name: removing?.name ?? '' })}
        cancelLabel={t('cancel')}
        confirmLabel={t('remove')}
        loading={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ params: { id: group.id, memberId: removing.id } })}
      />
    </Stack>
  );
}
