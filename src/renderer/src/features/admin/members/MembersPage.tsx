import { useState } from 'react';
import { Anchor, Badge, Button, Checkbox, Group, Modal, Select, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { adminMembersApi, membersApi } from '../../../../../shared/api';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../../shared/domain/pagination';
import { MEMBER_QUERIES } from '../../../api/adminMembers';
import { invalidateEndpoints, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { useMemberGroups } from '../../../api/studio';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { showToast } from '../../../components/toast';
import { useListState } from '../../../components/list/useListState';
import { formatDate } from '../../../i18n/formatDate';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { useUserSession } from '../../../stores/userSession';
import { AdminPageFrame } from '../AdminPageFrame';
import { MemberExportButton } from '../memberTransfer/MemberExportButton';
import { IconUpload } from '../../../components/icons';
import { MemberDrawer } from './MemberDrawer';
import { ListStates } from '../../../components/list/ListStates';
import { BulkActions, ListPagination, ListSearchInput, ListTable, ListToolbar, RowSelectCell, SelectAllHeader } from '../../../components/list/ListParts';
import { localizedName } from '../../../../../shared/domain/language';
import { MemberQuotaInput } from './MemberQuotaInput';

/** The bulk credit limit dialog: a number, or back to the group's per-member quota. */
function BulkQuotaDialog({
  count,
  opened,
  busy,
  onClose,
  onSave,
}: {
  count: number;
  opened: boolean;
  busy: boolean;
  onClose: () => void;
  onSave: (quota: number | null) => void;
}) {
  const { t } = useTranslation('adminMembers');
  const [useGroup, setUseGroup] = useState(false);
  const [quota, setQuota] = useState<number | string>('');
  const missing = !useGroup && quota === '';
  return (
    <Modal opened={opened} onClose={onClose} title={t('bulk_quota_title', { count })} closeButtonProps={{ 'aria-label': t('close') }}>
      <Stack gap="sm">
        <Checkbox label={t('field.group_default_quota')} checked={useGroup} onChange={(event) => setUseGroup(event.currentTarget.checked)} />
        {!useGroup && <MemberQuotaInput value={quota} onChange={setQuota} data-autofocus data-testid="bulk-quota-input" />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button loading={busy} disabled={missing} onClick={() => onSave(useGroup ? null : Number(quota))} data-testid="bulk-quota-save">
            {t('save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

const STATUSES = membersApi.memberStatusSchema.options;
const YES_NO = z.enum(['true', 'false']).optional();

/** The list's filters in the URL beside page, size and search (spec §2), by their query names. */
const FILTERS = z.object({
  member_group_id: z.string().regex(/^\d+$/).optional(),
  member_status: membersApi.memberStatusSchema.optional(),
  is_admin: YES_NO,
  member_type: adminMembersApi.memberTypeSchema.optional(),
  has_sso: YES_NO,
});
type Filters = z.output<typeof FILTERS>;
type FilterKey = keyof Filters;

/** Deactivate the approved members of a selection, or reactivate the deactivated ones. */
type StatusAction = 'deactivate' | 'reactivate';

/**
 * Admin "All members" (spec §2, §6, §7): search, filters, page and size in the URL; row selection
 * with bulk credit limit, deactivation, reactivation and delete (each confirmed); a row opens the member's drawer. The header exports the
 * members and leads to the bulk upload (features/admin/memberTransfer).
 */
export default function MembersPage() {
  const { t } = useTranslation('adminMembers');
  const { t: tTransfer } = useTranslation('memberTransfer');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const ownId = useUserSession((state) => state.member?.id);
  const listState = useListState({ size: DEFAULT_LIST_PAGE_SIZE, filters: FILTERS });
  const { page, size, search, filters } = listState;
  const groups = useMemberGroups();
  const list = useEndpointQuery(
    adminMembersApi.listAdminMembers,
    { query: { page, size, search_term: search, ...filters } },
    { placeholderData: keepPreviousData },
  );
  const [selected, setSelected] = useState<number[]>([]);
  const [openId, setOpenId] = useState<number | null>(null);
  const [dialog, setDialog] = useState<'quota' | 'delete' | StatusAction | null>(null);
  const items = list.data?.items ?? [];
  const refresh = () => void invalidateEndpoints(queryClient, MEMBER_QUERIES);

  const setQuota = useEndpointMutation(adminMembersApi.bulkPatchMembers, {
    onSuccess: ({ updated }) => {
      showToast('success', t('bulk_quota_toast', { count: updated, total: selected.length }));
      setDialog(null);
      setSelected([]);
      refresh();
    },
  });
  // Deactivates the approved members among those selected, or reactivates the deactivated ones.
  const changeStatus = useEndpointMutation(adminMembersApi.bulkPatchMembers, {
    onSuccess: ({ updated }, { body }) => {
      const action: StatusAction = body.member_status === 'deactivated' ? 'deactivate' : 'reactivate';
      showToast('success', t(`${action}.bulk_toast`, { count: updated, total: selected.length }));
      setDialog(null);
      setSelected([]);
      refresh();
    },
  });
  const statusDialog = dialog === 'deactivate' || dialog === 'reactivate' ? dialog : null;
  const remove = useEndpointMutation(adminMembersApi.bulkDeleteMembers, {
    onSuccess: ({ deleted }) => {
      showToast('success', t('deleted_toast', { count: deleted }));
      setDialog(null);
      setSelected([]);
      refresh();
    },
    onError: refresh,
  });

  const selectable = items.filter((item) => item.id !== ownId).map((item) => item.id);
  const filterSelect = (key: FilterKey, label: string, data: { value: string; label: string }[]) => (
    <Select
      key={key}
      label={label}
      placeholder={t('filter.any')}
      data={data}
      value={filters[key] ?? null}
      onChange={(value) => {
        setSelected([]);
        listState.setFilter(key, value as Filters[FilterKey]);
      }}
      clearable
      w={{ base: 'calc(50% - 6px)', xs: 170 }}
      comboboxProps={{ withinPortal: true }}
      data-testid={`filter-${key}`}
    />
  );

  return (
    <AdminPageFrame title={t('title')} description={t('description')}>
      <ListToolbar mb="sm">
        <ListSearchInput list={listState} type="search" label={t('search')} placeholder={t('search_placeholder')} w={{ base: '100%', sm: 320 }} />
        <Group gap="xs" data-testid="members-header-actions">
          <MemberExportButton />
          <Button component={Link} to="/admin/members/upload" variant="default" leftSection={<IconUpload size={16} />}>
            {tTransfer('upload.open')}
          </Button>
        </Group>
      </ListToolbar>
      <Group mb="md" gap="sm" align="flex-end">
        {filterSelect(
          'member_group_id',
          t('filter.group'),
          (groups.data ?? []).map((group) => ({ value: String(group.id), label: localizedName(group, language) })),
        )}
        {filterSelect(
          'member_status',
          t('filter.status'),
          STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) })),
        )}
        {filterSelect('is_admin', t('filter.admin'), [
          { value: 'true', label: t('filter.admins') },
          { value: 'false', label: t('filter.non_admins') },
        ])}
        {filterSelect('member_type', t('filter.type'), [
          { value: 'organization', label: t('type.organization') },
          { value: 'individual', label: t('type.individual') },
        ])}
        {filterSelect('has_sso', t('filter.sso'), [
          { value: 'true', label: t('filter.with_sso') },
          { value: 'false', label: t('filter.without_sso') },
        ])}
      </Group>
      <BulkActions count={selected.length} label={t('selected', { count: selected.length })}>
        <Button size="xs" onClick={() => setDialog('quota')} data-testid="bulk-quota">
          {t('bulk_quota')}
        </Button>
        <Button size="xs" variant="default" onClick={() => setDialog('deactivate')} data-testid="bulk-deactivate">
          {t('deactivate.action')}
        </Button>
        <Button size="xs" variant="default" onClick={() => setDialog('reactivate')} data-testid="bulk-reactivate">
          {t('reactivate.action')}
        </Button>
        <Button size="xs" color="red" variant="light" onClick={() => setDialog('delete')} data-testid="bulk-delete">
          {t('bulk_delete')}
        </Button>
      </BulkActions>
      <ListStates query={list} endpoint={adminMembersApi.listAdminMembers} empty={t('empty')} emptyTestId="members-empty">
        {() => (
          <ListTable
            minWidth={900}
            verticalSpacing="sm"
            highlightOnHover
            data-testid="members-table"
            head={
              <>
                <SelectAllHeader ids={selectable} selected={selected} onChange={setSelected} label={t('select_all')} disabled={selectable.length === 0} />
                <Table.Th>{t('column.name')}</Table.Th>
                <Table.Th>{t('column.email')}</Table.Th>
                <Table.Th>{t('column.groups')}</Table.Th>
                <Table.Th>{t('column.status')}</Table.Th>
                <Table.Th>{t('column.credit_quota')}</Table.Th>
                <Table.Th>{t('column.joined')}</Table.Th>
              </>
            }
          >
            {items.map((item) => (
              <Table.Tr key={item.id} data-testid="member-row" data-email={item.email}>
                <RowSelectCell
                  id={item.id}
                  selected={selected}
                  onChange={setSelected}
                  label={t('select_named', { name: item.name })}
                  disabled={item.id === ownId}
                />
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Anchor component="button" type="button" fw={500} ta="left" onClick={() => setOpenId(item.id)} data-testid="open-member">
                      {item.name}
                    </Anchor>
                    {item.is_admin && (
                      <Badge size="xs" variant="light" color="indigo" c="indigo.9" miw="max-content">
                        {t('admin_badge')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{item.email}</Table.Td>
                <Table.Td>{item.member_groups.map((group) => localizedName(group, language)).join(', ') || '—'}</Table.Td>
                <Table.Td>{t(`status.${item.member_status}`)}</Table.Td>
                <Table.Td>{item.credit_quota === null ? t('group_default') : item.credit_quota.toLocaleString(language)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(item.created_at, language)}</Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListStates>
      <Group justify="space-between" mt="md">
        <Text size="sm" c="dimmed">
          {list.data ? t('total', { count: list.data.total_items }) : ''}
        </Text>
        <ListPagination list={listState} totalPages={list.data?.total_pages} mt="0" />
      </Group>
      <MemberDrawer memberId={openId} onClose={() => setOpenId(null)} />
      <BulkQuotaDialog
        key={dialog === 'quota' ? 'open' : 'closed'}
        count={selected.length}
        opened={dialog === 'quota'}
        busy={setQuota.isPending}
        onClose={() => setDialog(null)}
        onSave={(quota) => setQuota.mutate({ body: { member_ids: selected, credit_quota: quota } })}
      />
      <ConfirmDialog
        opened={statusDialog !== null}
        title={statusDialog ? t(`${statusDialog}.bulk_title`, { count: selected.length }) : ''}
        body={statusDialog ? t(`${statusDialog}.body`, { count: selected.length }) : ''}
        cancelLabel={t('cancel')}
        confirmLabel={statusDialog ? t(`${statusDialog}.action`) : ''}
        loading={changeStatus.isPending}
        restoring={statusDialog === 'reactivate'}
        onCancel={() => setDialog(null)}
        onConfirm={() =>
          statusDialog && changeStatus.mutate({ body: { member_ids: selected, member_status: statusDialog === 'deactivate' ? 'deactivated' : 'approved' } })
        }
      />
      <ConfirmDialog
        opened={dialog === 'delete'}
        title={t('bulk_delete_title', { count: selected.length })}
        body={t('delete_body', { count: selected.length })}
        cancelLabel={t('cancel')}
        confirmLabel={t('delete')}
        loading={remove.isPending}
        onCancel={() => setDialog(null)}
        onConfirm={() => remove.mutate({ body: { member_ids: selected } })}
      />
    </AdminPageFrame>
  );
}
