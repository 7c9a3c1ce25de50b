import { Fragment, useState } from 'react';
import { Box, Button, Code, Group, Select, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { adminAuditLogApi, type AuditEntry } from '../../../../../shared/api';
import type { AuditLogQuery } from '../../../../../shared/api/admin/auditLog';
import { AUDIT_ACTIONS, type AuditAction, isAuditTarget } from '../../../../../shared/domain/audit';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../../shared/domain/pagination';
import { useEndpointQuery } from '../../../api/endpointHooks';
import { IconChevron } from '../../../components/icons';
import { useListState } from '../../../components/list/useListState';
import { PERIOD_FILTERS, listPeriod } from '../../../components/list/dayRange';
import { PeriodFilter } from '../../../components/list/PeriodFilter';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { AdminPageFrame } from '../AdminPageFrame';
import { fieldLabel, isSettingsTarget, settingsSummary, splitChanges, targetLabel } from './auditChanges';
import { ListStates } from '../../../components/list/ListStates';
import { ListClearFilters, ListSearchInput, ListTable } from '../../../components/list/ListParts';

const FILTERS = z.object({ action: z.enum(AUDIT_ACTIONS).optional(), ...PERIOD_FILTERS });

const actionKey = (action: AuditAction) => `action.${action}` as const;

/** A recorded value as text: booleans as yes/no, nothing as "(empty)", lists joined. */
function ValueText({ value }: { value: unknown }) {
  const { t } = useTranslation('audit');
  let text: string;
  if (value === null || value === undefined || value === '') text = t('empty_value');
  else if (typeof value === 'boolean') text = t(value ? 'yes' : 'no');
  else if (Array.isArray(value)) text = value.map(String).join(', ') || t('empty_value');
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  return (
    <Text component="span" size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {text}
    </Text>
  );
}

/**
 * The one-line summary: what the target is called, and which fields changed; for settings, each
 * setting with its new value; for what was created or deleted without a name, the values recorded.
 */
function Summary({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('audit');
  const language = useResolvedLanguage();
  const { edited, values } = splitChanges(entry.changes);
  const label = targetLabel(entry, language);
  const isEdit = entry.action.endsWith('.update');
  let detail: string | null = null;
  if (edited.length > 0)
    detail = isSettingsTarget(entry.target_type)
      ? settingsSummary(edited)
      : t('changed', { count: edited.length, fields: edited.map(([field]) => fieldLabel(field)).join(', ') });
  else if (isEdit) detail = t('no_change');
  else if (!label && values.length > 0) detail = values.map(([field, value]) => `${fieldLabel(field)}: ${String(value)}`).join(', ');
  return (
    <Stack gap={0}>
      {label && (
        <Text size="sm" fw={500} lineClamp={1} style={{ overflowWrap: 'anywhere' }}>
          {label}
        </Text>
      )}
      {detail && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {detail}
        </Text>
      )}
    </Stack>
  );
}

/** Every recorded field: edited ones as before → after, plain values as they were recorded. */
function Details({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('audit');
  const { edited, values } = splitChanges(entry.changes);
  return (
    <Table
      withRowBorders={false}
      verticalSpacing={4}
      layout="fixed"
      aria-label={t('details_of', { action: t(actionKey(entry.action)) })}
      data-testid="audit-details"
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="30%">{t('field')}</Table.Th>
          <Table.Th>{t('before')}</Table.Th>
          <Table.Th>{t('after')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {edited.map(([field, change]) => (
          <Table.Tr key={field}>
            <Table.Td>
              <Code>{fieldLabel(field)}</Code>
            </Table.Td>
            <Table.Td>
              <ValueText value={change.from} />
            </Table.Td>
            <Table.Td>
              <ValueText value={change.to} />
            </Table.Td>
          </Table.Tr>
        ))}
        {values.map(([field, value]) => (
          <Table.Tr key={field}>
            <Table.Td>
              <Code>{fieldLabel(field)}</Code>
            </Table.Td>
            <Table.Td colSpan={2}>
              <ValueText value={value} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Admin console "Audit log" (issue 11): every admin write, who made it and what changed; read only. */
export default function AuditLogPage() {
  const { t } = useTranslation('audit');
  const language = useResolvedLanguage();
  const listState = useListState({ size: DEFAULT_LIST_PAGE_SIZE, filters: FILTERS });
  const { page, size, search } = listState;
  const [expanded, setExpanded] = useState<number[]>([]);

  const { action } = listState.filters;
  const period = listPeriod(listState.filters);

  const request: AuditLogQuery = {
    page,
    size,
    ...(action ? { action } : {}),
    ...period.query,
    ...(search ? { search_term: search } : {}),
  };
  const list = useEndpointQuery(adminAuditLogApi.listAuditLog, { query: request }, { placeholderData: keepPreviousData });
  const items = list.data?.items ?? [];
  const filtered = listState.isFiltered;

  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const actionOptions = [...new Set(AUDIT_ACTIONS.map((name) => name.split('.')[0]!))].filter(isAuditTarget).map((target) => ({
    group: t(`target_type.${target}`),
    items: AUDIT_ACTIONS.filter((name) => name.startsWith(`${target}.`)).map((name) => ({ value: name, label: t(actionKey(name)) })),
  }));
  const toggle = (id: number) => setExpanded((current) => (current.includes(id) ? current.filter((open) => open !== id) : [...current, id]));

  return (
    <AdminPageFrame title={t('title')} description={t('description')}>
      <Box component="form" role="search" aria-label={t('filters')} mb="md" onSubmit={(event) => event.preventDefault()}>
        <Group align="flex-end" gap="sm">
          <Select
            label={t('action_label')}
            placeholder={t('action_all')}
            data={actionOptions}
            value={action ?? null}
            onChange={(value) => listState.setFilter('action', value as typeof action)}
            clearable
            searchable
            w={{ base: '100%', sm: 260 }}
            comboboxProps={{ withinPortal: true }}
          />
          <PeriodFilter list={listState} period={period} />
          <ListSearchInput list={listState} type="search" label={t('search_label')} placeholder={t('search_placeholder')} w={{ base: '100%', sm: 260 }} />
          <ListClearFilters list={listState} />
        </Group>
      </Box>
      {list.data && (
        <Text size="sm" c="dimmed" mb="xs" aria-live="polite">
          {t('results', { count: list.data.total_items })}
        </Text>
      )}
      <ListStates
        query={list}
        list={listState}
        endpoint={adminAuditLogApi.listAuditLog}
        empty={t(filtered ? 'empty_filtered' : 'empty')}
        emptyTestId="audit-empty"
        errorTestId="audit-error"
        rowHeight={48}
      >
        {() => (
          <ListTable
            minWidth={760}
            verticalSpacing="sm"
            data-testid="audit-log"
            head={
              <>
                <Table.Th>{t('when')}</Table.Th>
                <Table.Th>{t('who')}</Table.Th>
                <Table.Th>{t('action_column')}</Table.Th>
                <Table.Th>{t('target')}</Table.Th>
                <Table.Th>{t('change')}</Table.Th>
                <Table.Th w={48} />
              </>
            }
          >
            {items.map((entry) => {
              const open = expanded.includes(entry.id);
              const detailId = `audit-detail-${entry.id}`;
              return (
                <Fragment key={entry.id}>
                  <Table.Tr data-testid="audit-row" data-action={entry.action}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{dateTime.format(new Date(entry.created_at))}</Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {entry.actor.name}
                      </Text>
                      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                        {entry.actor.email}
                        {entry.actor.id === null && ` · ${t('deleted_member')}`}
                      </Text>
                    </Table.Td>
                    <Table.Td>{t(actionKey(entry.action))}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{isAuditTarget(entry.target_type) ? t(`target_type.${entry.target_type}`) : fieldLabel(entry.target_type)}</Text>
                      {entry.target_id && (
                        <Text size="xs" c="dimmed">
                          #{entry.target_id}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Summary entry={entry} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Button
                        variant="subtle"
                        size="compact-sm"
                        px={6}
                        aria-expanded={open}
                        aria-controls={open ? detailId : undefined}
                        aria-label={t(open ? 'hide_details' : 'show_details')}
                        onClick={() => toggle(entry.id)}
                      >
                        <IconChevron size={16} style={{ transform: open ? 'rotate(180deg)' : undefined, transition: 'transform 120ms' }} />
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                  {open && (
                    <Table.Tr id={detailId}>
                      <Table.Td colSpan={6} bg="gray.0">
                        <Details entry={entry} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
          </ListTable>
        )}
      </ListStates>
    </AdminPageFrame>
  );
}
