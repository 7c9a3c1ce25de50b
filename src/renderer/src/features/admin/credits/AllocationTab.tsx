import { QueryError } from '../../../components/QueryError';
import { useState } from 'react';
import { Badge, Button, Group, NumberInput, Skeleton, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminCreditsApi } from '../../../../../shared/api';
import { creditAllocationBodySchema } from '../../../../../shared/api/admin/credits';
import { CREDIT_QUOTA_MAX } from '../../../../../shared/domain/credits';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../../shared/domain/pagination';
import { useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { IconLock } from '../../../components/icons';
import { showToast } from '../../../components/toast';
import { useListState } from '../../../components/list/useListState';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { useCreditFormat } from '../../../components/useCreditFormat';
import { ListPagination, ListSearchInput, ListTable } from '../../../components/list/ListParts';
import { localizedName } from '../../../../../shared/domain/language';

/** A quota being edited: a number, or '' for "no limit" / "follows the group". */
type Draft = number | '';
type GroupDraft = { credit_quota?: Draft; member_credit_quota?: Draft };

const toQuota = (value: Draft | undefined) => (value === '' || value === undefined ? null : value);

/** Tab 1: monthly allocation by group and by member, saved together in one call. */
export function AllocationTab() {
  const { t } = useTranslation('adminCredits');
  const language = useResolvedLanguage();
  const format = useCreditFormat();
  const listState = useListState({ size: DEFAULT_LIST_PAGE_SIZE });
  const allocation = useEndpointQuery(
    adminCreditsApi.getCreditAllocation,
    { query: { page: listState.page, size: listState.size, search_term: listState.search } },
    { placeholderData: keepPreviousData },
  );
  const [groupDrafts, setGroupDrafts] = useState<Record<number, GroupDraft>>({});
  const [memberDrafts, setMemberDrafts] = useState<Record<number, Draft>>({});
  const changes = Object.keys(groupDrafts).length + Object.keys(memberDrafts).length;

  const save = useEndpointMutation(adminCreditsApi.updateCreditAllocation, {
    invalidates: [adminCreditsApi.getCreditAllocation],
    onSuccess: () => {
      setGroupDrafts({});
      setMemberDrafts({});
      showToast('success', t('allocation.saved'));
    },
  });
  const submit = () => {
    const body = creditAllocationBodySchema.safeParse({
      groups: Object.entries(groupDrafts).map(([id, draft]) => ({
        id: Number(id),
        ...(draft.credit_quota !== undefined ? { credit_quota: toQuota(draft.credit_quota) } : {}),
        ...(draft.member_credit_quota !== undefined ? { member_credit_quota: toQuota(draft.member_credit_quota) } : {}),
      })),
      members: Object.entries(memberDrafts).map(([id, draft]) => ({ id: Number(id), credit_quota: toQuota(draft) })),
    });
    if (body.success) save.mutate({ body: body.data });
    else showToast('error', t('allocation.save_failed'));
  };

  if (allocation.isLoading) return <Skeleton h={300} />;
  if (!allocation.data) return <QueryError query={allocation} endpoint={adminCreditsApi.getCreditAllocation} />;
  const { groups, members, period, tenant_remaining } = allocation.data;
  const groupName = (group: { ko_name: string; en_name: string }) => localizedName(group, language);
  const quotaInput = (label: string, value: Draft, onChange: (value: Draft) => void, disabled = false, testId?: string) => (
    <NumberInput
      size="xs"
      w={140}
      min={0}
      max={CREDIT_QUOTA_MAX}
      allowDecimal={false}
      thousandSeparator=","
      placeholder={t('allocation.no_limit')}
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(next) => onChange(typeof next === 'number' ? next : '')}
      data-testid={testId}
    />
  );

  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          {t('allocation.period', { period })} ·{' '}
          {t('allocation.pool', { remaining: tenant_remaining === null ? t('allocation.no_limit') : format.credits(tenant_remaining) })}
        </Text>
        <Button onClick={submit} loading={save.isPending} disabled={changes === 0} data-testid="allocation-save">
          {t('allocation.save', { count: changes })}
        </Button>
      </Group>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('allocation.groups')}
        </Title>
        <ListTable
          minWidth={640}
          striped
          data-testid="allocation-groups"
          head={
            <>
              <Table.Th>{t('allocation.group')}</Table.Th>
              <Table.Th ta="right">{t('allocation.members')}</Table.Th>
              <Table.Th>{t('allocation.group_quota')}</Table.Th>
              <Table.Th>{t('allocation.member_quota')}</Table.Th>
              <Table.Th ta="right">{t('allocation.used')}</Table.Th>
            </>
          }
        >
          {groups.map((group) => {
            const draft = groupDrafts[group.id] ?? {};
            const setDraft = (patch: GroupDraft) => setGroupDrafts({ ...groupDrafts, [group.id]: { ...draft, ...patch } });
            const name = groupName(group);
            return (
              <Table.Tr key={group.id}>
                <Table.Td>
                  <Group gap={6}>
                    <Text size="sm">{name}</Text>
                    {group.is_default && (
                      <Tooltip label={t('allocation.default_locked')}>
                        <Badge size="xs" variant="light" color="gray" leftSection={<IconLock size={10} />} tabIndex={0}>
                          {t('allocation.default')}
                        </Badge>
                      </Tooltip>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td ta="right">{format.count(group.member_count)}</Table.Td>
                <Table.Td>
                  {quotaInput(
                    t('allocation.group_quota_of', { name }),
                    draft.credit_quota ?? group.credit_quota ?? '',
                    (value) => setDraft({ credit_quota: value }),
                    group.is_default,
                    `group-quota-${group.id}`,
                  )}
                </Table.Td>
                <Table.Td>
                  {quotaInput(
                    t('allocation.member_quota_of', { name }),
                    draft.member_credit_quota ?? group.member_credit_quota ?? '',
                    (value) => setDraft({ member_credit_quota: value }),
                    group.is_default,
                  )}
                </Table.Td>
                <Table.Td ta="right">{format.credits(group.used)}</Table.Td>
              </Table.Tr>
            );
          })}
        </ListTable>
      </Stack>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t('allocation.member_overrides')}
          </Title>
          <ListSearchInput list={listState} w={260} label={<VisuallyHidden>{t('allocation.search')}</VisuallyHidden>} placeholder={t('allocation.search')} />
        </Group>
        {members.items.length === 0 ? (
          <Text c="dimmed">{t('allocation.no_members')}</Text>
        ) : (
          <ListTable
            minWidth={640}
            striped
            data-testid="allocation-members"
            head={
              <>
                <Table.Th>{t('allocation.member')}</Table.Th>
                <Table.Th>{t('allocation.override')}</Table.Th>
                <Table.Th ta="right">{t('allocation.effective')}</Table.Th>
                <Table.Th ta="right">{t('allocation.used')}</Table.Th>
              </>
            }
          >
            {members.items.map((member) => (
              <Table.Tr key={member.id}>
                <Table.Td>
                  <Text size="sm">{member.name}</Text>
                  <Text size="xs" c="dimmed">
                    {member.email}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {quotaInput(
                    t('allocation.override_of', { name: member.name }),
                    memberDrafts[member.id] ?? member.credit_quota ?? '',
                    (value) => setMemberDrafts({ ...memberDrafts, [member.id]: value }),
                    false,
                    `member-quota-${member.id}`,
                  )}
                </Table.Td>
                <Table.Td ta="right">{member.effective_quota === null ? t('allocation.no_limit') : format.credits(member.effective_quota)}</Table.Td>
                <Table.Td ta="right">{format.credits(member.used)}</Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
        <ListPagination list={listState} totalPages={members.total_pages} mt="0" />
        <Text size="xs" c="dimmed">
          {t('allocation.override_hint')}
        </Text>
      </Stack>
    </Stack>
  );
}
