import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Menu, Progress, Skeleton, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminMemberGroupsApi, type AdminMemberGroup } from '../../../../../shared/api';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../../shared/domain/pagination';
import { invalidateEndpoints, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { IconChevron, IconPlus } from '../../../components/icons';
import { showToast } from '../../../components/toast';
import { useListState } from '../../../components/list/useListState';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { AdminPageFrame } from '../AdminPageFrame';
import { GroupNameDialog, GroupQuotaDialog } from './GroupDialogs';
import { GroupMembersDrawer } from './GroupMembersDrawer';
import { ListStates } from '../../../components/list/ListStates';
import { ActionsHeader, ListSearchInput, ListTable, ListToolbar } from '../../../components/list/ListParts';
import { localizedName } from '../../../../../shared/domain/language';
import { OtherName } from '../../../components/OtherName';
import { displayCredits } from '../../../../../shared/domain/credits';

/** What a change of a group makes stale: the list, this month's usage, the members. */
const GROUP_QUERIES = [adminMemberGroupsApi.listAdminMemberGroups, adminMemberGroupsApi.memberGroupUsage, adminMemberGroupsApi.listMemberGroupMembers];

type Dialog = { kind: 'name'; group: AdminMemberGroup | null } | { kind: 'quota' | 'members' | 'delete'; group: AdminMemberGroup };

/** This month's usage against the group's quota: a bar when there is a quota, the number alone otherwise. */
function UsageCell({ used, quota }: { used: number | undefined; quota: number | null }) {
  const { t, i18n } = useTranslation('adminGroups');
  if (used === undefined) return <Skeleton h={12} w={80} />;
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  // Rounded down like every credit figure (spec §9), so it reads as the credits screen does.
  const shown = displayCredits(used);
  if (quota === null) return <Text size="sm">{number.format(shown)}</Text>;
  const percent = quota === 0 ? 100 : Math.min(100, (used / quota) * 100);
  return (
    <Stack gap={4} miw={110}>
      <Text size="sm">{t('usage_of', { used: number.format(shown), quota: number.format(quota) })}</Text>
      <Progress value={percent} color={percent >= 90 ? 'red' : 'indigo'} size="sm" aria-label={t('usage_percent', { percent: Math.round(percent) })} />
    </Stack>
  );
}

/** Admin group management (spec §2, §5, §7): list with members, quotas and this month's usage; create, rename, quotas, delete, members. */
export default function GroupsPage() {
  const { t, i18n } = useTranslation('adminGroups');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const listState = useListState({ size: DEFAULT_LIST_PAGE_SIZE });
  const list = useEndpointQuery(
    adminMemberGroupsApi.listAdminMemberGroups,
    { query: { page: listState.page, size: listState.size, search_term: listState.search } },
    { placeholderData: keepPreviousData },
  );
  const usage = useEndpointQuery(adminMemberGroupsApi.memberGroupUsage, {});
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const refresh = () => invalidateEndpoints(queryClient, GROUP_QUERIES);
  const close = () => setDialog(null);
  const nameOf = (group: AdminMemberGroup) => localizedName(group, language);
  const number = new Intl.NumberFormat(i18n.language);
  const quotaText = (value: number | null) => (value === null ? t('no_limit') : number.format(value));

  const remove = useEndpointMutation(adminMemberGroupsApi.deleteMemberGroup, {
    onSuccess: (result) => showToast('success', t('deleted', { count: result.moved_members })),
    onSettled: () => {
      close();
      return refresh();
    },
  });

  const items = list.data?.items ?? [];
  const current = dialog?.group ?? null;
  return (
    <AdminPageFrame title={t('title')} description={t('description')}>
      <ListToolbar>
        <ListSearchInput list={listState} type="search" placeholder={t('search')} aria-label={t('search')} w={{ base: '100%', sm: 260 }} />
        <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'name', group: null })}>
          {t('new_group')}
        </Button>
      </ListToolbar>
      {usage.isError && (
        <Text size="sm" c="red" mb="sm">
          {t('usage_failed')}
        </Text>
      )}
      <ListStates query={list} list={listState} endpoint={adminMemberGroupsApi.listAdminMemberGroups} empty={t('empty')} noMatch={t('no_match')} rowHeight={48}>
        {() => (
          <ListTable
            minWidth={760}
            verticalSpacing="sm"
            data-testid="admin-groups"
            head={
              <>
                <Table.Th>{t('name')}</Table.Th>
                <Table.Th>{t('member_count')}</Table.Th>
                <Table.Th>{t('credit_quota')}</Table.Th>
                <Table.Th>{t('member_credit_quota')}</Table.Th>
                <Table.Th>{t('usage')}</Table.Th>
                <ActionsHeader label={t('actions')} />
              </>
            }
          >
            {items.map((group) => {
              const name = nameOf(group);
              return (
                <Table.Tr key={group.id} data-testid="admin-group-row" data-name={localizedName(group, 'en')}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text fw={500} size="sm">
                        {name}
                      </Text>
                      {group.is_default && (
                        <Badge size="xs" variant="light">
                          {t('default_badge')}
                        </Badge>
                      )}
                    </Group>
                    <OtherName named={group} language={language} />
                  </Table.Td>
                  <Table.Td>{number.format(group.member_count)}</Table.Td>
                  <Table.Td>{quotaText(group.credit_quota)}</Table.Td>
                  <Table.Td>{quotaText(group.member_credit_quota)}</Table.Td>
                  <Table.Td>
                    <UsageCell used={usage.isError ? 0 : usage.data?.items.find((row) => row.id === group.id)?.used} quota={group.credit_quota} />
                  </Table.Td>
                  <Table.Td ta="right">
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <ActionIcon variant="default" aria-label={t('actions_named', { name })}>
                          <IconChevron size={16} />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item onClick={() => setDialog({ kind: 'members', group })}>{t('show_members')}</Menu.Item>
                        <Menu.Item onClick={() => setDialog({ kind: 'name', group })}>{t('rename')}</Menu.Item>
                        <Menu.Item onClick={() => setDialog({ kind: 'quota', group })}>{t('edit_quotas')}</Menu.Item>
                        <Menu.Item color="red.9" disabled={group.is_default} onClick={() => setDialog({ kind: 'delete', group })}>
                          {t('delete')}
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </ListTable>
        )}
      </ListStates>
      <GroupNameDialog
        key={dialog?.kind === 'name' ? `name-${current?.id ?? 'new'}` : 'name-closed'}
        group={dialog?.kind === 'name' ? current : null}
        opened={dialog?.kind === 'name'}
        onClose={close}
        onSaved={() => void refresh()}
      />
      <GroupQuotaDialog
        key={`quota-${dialog?.kind === 'quota' ? current?.id : 'closed'}`}
        group={dialog?.kind === 'quota' ? current : null}
        onClose={close}
        onSaved={() => void refresh()}
      />
      <GroupMembersDrawer
        group={dialog?.kind === 'members' ? current : null}
        groupName={current ? nameOf(current) : ''}
        onClose={close}
        onChanged={() => void refresh()}
      />
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('delete_title', { name: current ? nameOf(current) : '' })}
        body={t('delete_body', { count: current?.member_count ?? 0 })}
        cancelLabel={t('cancel')}
        confirmLabel={t('delete')}
        loading={remove.isPending}
        onCancel={close}
        onConfirm={() => current && remove.mutate({ params: { id: current.id } })}
      />
    </AdminPageFrame>
  );
}
