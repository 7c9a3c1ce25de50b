import { useState } from 'react';
import { Badge, Button, Group, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { apiKeysApi, type ApiKey, type ApiKeyStatus, type CreateApiKeyBody, type CreatedApiKey } from '../../../../shared/api';
import { API_KEYS_PAGE_SIZE } from '../../../../shared/domain/apiKeys';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { invalidateEndpoints, useEndpointMutation, useEndpointQuery } from '../../api/endpointHooks';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageFrame } from '../../components/PageFrame';
import { IconEdit, IconPlus, IconTrash } from '../../components/icons';
import { showToast } from '../../components/toast';
import { useListState } from '../../components/list/useListState';
import { formatDate } from '../../i18n/formatDate';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { ApiDocs } from './ApiDocs';
import { ApiKeyDialog } from './ApiKeyDialog';
import { KeyRevealDialog } from './KeyRevealDialog';
import { ListStates } from '../../components/list/ListStates';
import { ActionsHeader, ListSearchInput, ListTable, ListToolbar } from '../../components/list/ListParts';

const STATUS_FILTERS = ['all', 'active', 'revoked'] as const;
const FILTERS = z.object({ status: z.enum(STATUS_FILTERS).default('all') });
const STATUS_COLORS: Record<ApiKeyStatus, string> = { active: 'teal', expired: 'gray', revoked: 'red' };
/** Text dark enough on each light background (WCAG AA at badge size), as ChatbotStatusBadge does. */
const STATUS_TEXT: Record<ApiKeyStatus, string> = { active: 'teal.9', expired: 'gray.9', revoked: 'red.9' };

/** Developers (spec §2, §3, §7): the member's API keys and how to call the OpenAI-compatible API. */
export default function DevelopersPage() {
  const { t } = useTranslation('developers');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const listState = useListState({ size: API_KEYS_PAGE_SIZE, filters: FILTERS });
  const { page, size, search } = listState;
  const { status } = listState.filters;
  const list = useEndpointQuery(
    apiKeysApi.listApiKeys,
    { query: { page, size, search_term: search, ...(status === 'all' ? {} : { status }) } },
    { placeholderData: keepPreviousData },
  );
  const [editing, setEditing] = useState<'create' | ApiKey | null>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const refresh = () => void invalidateEndpoints(queryClient, [apiKeysApi.listApiKeys]);

  const create = useEndpointMutation(apiKeysApi.createApiKey, {
    onSuccess: (key) => {
      setCreated(key);
      setEditing(null);
      refresh();
    },
  });
  const update = useEndpointMutation(apiKeysApi.updateApiKey, {
    onSuccess: () => {
      showToast('success', t('saved_toast'));
      setEditing(null);
      refresh();
    },
  });
  const save = (body: CreateApiKeyBody) => {
    if (editing === 'create' || editing === null) create.mutate({ body });
    else update.mutate({ params: { id: editing.id }, body });
  };
  const revoke = useEndpointMutation(apiKeysApi.revokeApiKey, {
    onSuccess: () => {
      showToast('success', t('revoked_toast'));
      setRevoking(null);
      refresh();
    },
  });

  const items = list.data?.items ?? [];
  // Calls cost fractions of a credit: two decimals show them.
  const credits = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  const date = (value: string | null, empty: string) => (value ? formatDate(value, language) : empty);

  return (
    <PageFrame title={t('title')} description={t('description')}>
      <Stack gap="xl">
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="api-keys-title">
          <Group justify="space-between" mb="md" gap="sm">
            <Title order={2} size="h4" id="api-keys-title">
              {t('keys_title')}
            </Title>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('create')} data-testid="create-key">
              {t('create_key')}
            </Button>
          </Group>
          <ListToolbar>
            <SegmentedControl
              value={status}
              onChange={(next) => listState.setFilter('status', next as typeof status)}
              data={STATUS_FILTERS.map((value) => ({ value, label: t(`filter.${value}`) }))}
              aria-label={t('filter_label')}
            />
            <ListSearchInput list={listState} placeholder={t('search')} aria-label={t('search')} w={{ base: '100%', sm: 260 }} />
          </ListToolbar>
          <ListStates
            query={list}
            list={listState}
            endpoint={apiKeysApi.listApiKeys}
            empty={t('empty')}
            noMatch={t('empty_filtered')}
            emptyTestId="api-keys-empty"
          >
            {() => (
              <ListTable
                minWidth={960}
                scrollRegion={t('keys_title')}
                verticalSpacing="sm"
                highlightOnHover
                data-testid="api-keys"
                head={
                  <>
                    <Table.Th>{t('column.name')}</Table.Th>
                    <Table.Th>{t('column.prefix')}</Table.Th>
                    <Table.Th>{t('column.chatbots')}</Table.Th>
                    <Table.Th>{t('column.created')}</Table.Th>
                    <Table.Th>{t('column.last_used')}</Table.Th>
                    <Table.Th>{t('column.expiry')}</Table.Th>
                    <Table.Th>{t('column.usage')}</Table.Th>
                    <Table.Th>{t('column.status')}</Table.Th>
                    <ActionsHeader label={t('column.actions')} />
                  </>
                }
              >
                {items.map((key) => (
                  <Table.Tr key={key.id} data-testid="api-key-row" data-name={key.name}>
                    <Table.Td fw={500} style={{ overflowWrap: 'anywhere' }}>
                      {key.name}
                    </Table.Td>
                    <Table.Td>
                      <Text ff="monospace" size="sm">
                        {key.key_prefix}…
                      </Text>
                    </Table.Td>
                    <Table.Td>{key.chatbots.map((chatbot) => chatbotName(chatbot, language) || t('untitled')).join(', ') || '—'}</Table.Td>
                    <Table.Td>{date(key.created_at, '—')}</Table.Td>
                    <Table.Td>{date(key.last_used_at, t('never_used'))}</Table.Td>
                    <Table.Td>{date(key.expires_at, t('no_expiry'))}</Table.Td>
                    <Table.Td data-testid="key-usage">
                      <Text size="sm">{t('usage.requests', { count: key.requests_this_month })}</Text>
                      <Text size="xs" c="dimmed">
                        {t('usage.credits', { credits: credits.format(key.credits_this_month) })}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Badge
                        style={{ minWidth: 'max-content' }}
                        color={STATUS_COLORS[key.status]}
                        c={STATUS_TEXT[key.status]}
                        variant="light"
                        data-testid="key-status"
                      >
                        {t(`status.${key.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {key.status !== 'revoked' && (
                        <Group gap={4} wrap="nowrap" justify="flex-end">
                          <Button
                            size="xs"
                            variant="subtle"
                            leftSection={<IconEdit size={14} />}
                            onClick={() => setEditing(key)}
                            aria-label={t('edit_named', { name: key.name })}
                          >
                            {t('edit')}
                          </Button>
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red"
                            leftSection={<IconTrash size={14} />}
                            onClick={() => setRevoking(key)}
                            aria-label={t('revoke_named', { name: key.name })}
                            data-testid="revoke-key"
                          >
                            {t('revoke')}
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </ListTable>
            )}
          </ListStates>
        </Paper>
        <ApiDocs />
      </Stack>
      <ApiKeyDialog target={editing} saving={create.isPending || update.isPending} onClose={() => setEditing(null)} onSubmit={save} />
      <KeyRevealDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        opened={revoking !== null}
        title={t('revoke_title', { name: revoking?.name ?? '' })}
        body={t('revoke_body')}
        cancelLabel={t('cancel')}
        confirmLabel={t('revoke')}
        loading={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate({ params: { id: revoking.id } })}
      />
    </PageFrame>
  );
}
