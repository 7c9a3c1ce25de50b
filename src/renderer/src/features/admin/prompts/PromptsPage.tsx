import { ActionIcon, Button, Menu, Table, Text } from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminPromptsApi } from '../../../../../shared/api';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../../shared/domain/pagination';
import { useEndpointQuery } from '../../../api/endpointHooks';
import { IconChevron, IconPlus } from '../../../components/icons';
import { ListStates } from '../../../components/list/ListStates';
import { ActionsHeader, ListSearchInput, ListTable, ListToolbar } from '../../../components/list/ListParts';
import { useListState } from '../../../components/list/useListState';
import { usePromptDialogs } from '../../../components/prompts/usePromptDialogs';
import { PromptVariableBadges } from '../../../components/prompts/PromptVariableBadges';
import { formatDate } from '../../../i18n/formatDate';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { AdminPageFrame } from '../AdminPageFrame';

/** The console's list and the members' `/` menus (GET /prompts/) both change with a tenant prompt. */
/** Admin console: the tenant's prompts (issue 23), which every member can insert with `/`. */
export default function PromptsPage() {
  const { t } = useTranslation('prompts');
  const language = useResolvedLanguage();
  const listState = useListState({ size: DEFAULT_LIST_PAGE_SIZE });
  const list = useEndpointQuery(
    adminPromptsApi.listAdminPrompts,
    { query: { page: listState.page, size: listState.size, search_term: listState.search } },
    { placeholderData: keepPreviousData },
  );
  const prompts = usePromptDialogs('tenant');

  return (
    <AdminPageFrame title={t('title')} description={t('description')}>
      <ListToolbar>
        <ListSearchInput list={listState} type="search" placeholder={t('search')} aria-label={t('search')} w={{ base: '100%', sm: 260 }} />
        <Button leftSection={<IconPlus size={16} />} onClick={() => prompts.edit(null)} data-testid="new-prompt">
          {t('new_prompt')}
        </Button>
      </ListToolbar>
      <ListStates query={list} list={listState} endpoint={adminPromptsApi.listAdminPrompts} empty={t('empty')} noMatch={t('no_match')} rowHeight={48}>
        {() => (
          <ListTable
            minWidth={720}
            verticalSpacing="sm"
            data-testid="admin-prompts"
            head={
              <>
                <Table.Th>{t('name')}</Table.Th>
                <Table.Th>{t('text')}</Table.Th>
                <Table.Th>{t('variables')}</Table.Th>
                <Table.Th>{t('updated')}</Table.Th>
                <ActionsHeader label={t('actions')} />
              </>
            }
          >
            {(list.data?.items ?? []).map((prompt) => (
              <Table.Tr key={prompt.id} data-testid="admin-prompt-row">
                <Table.Td>
                  <Text fw={500} size="sm">
                    {prompt.name}
                  </Text>
                </Table.Td>
                <Table.Td maw={360}>
                  <Text size="sm" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                    {prompt.text}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <PromptVariableBadges variables={prompt.variables} none={t('no_variables')} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatDate(prompt.updated_at, language)}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon variant="default" aria-label={t('actions_named', { name: prompt.name })}>
                        <IconChevron size={16} />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item onClick={() => prompts.edit(prompt)}>{t('edit')}</Menu.Item>
                      <Menu.Item color="red.9" onClick={() => prompts.confirmDelete(prompt)}>
                        {t('delete')}
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListStates>
      {prompts.dialogs}
    </AdminPageFrame>
  );
}
