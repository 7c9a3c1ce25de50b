import { useState } from 'react';
import { Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { adminChatbotsApi, type AdminChatbot } from '../../../../../shared/api';
import { chatbotName } from '../../../../../shared/domain/chatbots';
import { localizedName } from '../../../../../shared/domain/language';
import { keepPreviousData } from '@tanstack/react-query';
import { useEndpointQuery } from '../../../api/endpointHooks';
import { useAllAdminGroups } from '../../../api/adminMemberGroups';
import { ListStates } from '../../../components/list/ListStates';
import { ActionsHeader, ListTable } from '../../../components/list/ListParts';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { AdminPageFrame } from '../AdminPageFrame';
import { StartingGroupsDialog } from './StartingGroupsDialog';

/** Every member starts with these; a workspace has a handful, so one page holds them all. */
const DEFAULT_CHATBOTS_PAGE = { page: 1, size: 100, is_default: true } as const;

/**
 * The console's default chatbots (spec §1: members chat with default chatbots): each with its
 * model, the groups that see it (everyone when none) and its documents. Edit opens the chatbot in
 * the Studio editor, which lets only admins change a default chatbot (instructions, model,
 * documents, visible groups); members never see an edit for them, and the server refuses them.
 * "Starts for" lists and sets the groups whose members open it first (default_member_groups).
 */
export default function DefaultChatbotsPage() {
  const { t } = useTranslation('defaultChatbots');
  const language = useResolvedLanguage();
  const list = useEndpointQuery(adminChatbotsApi.listAdminChatbots, { query: DEFAULT_CHATBOTS_PAGE }, { placeholderData: keepPreviousData });
  const items = list.data?.items ?? [];
  const groups = useAllAdminGroups().data?.items ?? [];
  const [choosing, setChoosing] = useState<AdminChatbot | null>(null);
  const nameOf = (chatbot: AdminChatbot) => chatbotName(chatbot, language) || t('untitled');
  const startingGroups = (chatbot: AdminChatbot) => groups.filter((group) => chatbot.default_member_groups.includes(group.id));
  return (
    <AdminPageFrame title={t('title')} description={t('description')}>
      <ListStates query={list} endpoint={adminChatbotsApi.listAdminChatbots} empty={t('empty')}>
        {() => (
          <ListTable
            minWidth={640}
            verticalSpacing="sm"
            data-testid="default-chatbots-table"
            head={
              <>
                <Table.Th>{t('column.name')}</Table.Th>
                <Table.Th>{t('column.starting')}</Table.Th>
                <Table.Th>{t('column.model')}</Table.Th>
                <Table.Th>{t('column.groups')}</Table.Th>
                <Table.Th>{t('column.documents')}</Table.Th>
                <ActionsHeader label={t('column.actions')} />
              </>
            }
          >
            {items.map((chatbot) => {
              const name = nameOf(chatbot);
              const starting = startingGroups(chatbot);
              return (
                <Table.Tr key={chatbot.id} data-testid="default-chatbot-row">
                  {/* The name opens the editor too: on a phone the Edit column is off-screen. */}
                  <Table.Td>
                    <Anchor component={Link} to={`/dashboard/studio/${chatbot.id}`} fw={500} tabIndex={-1}>
                      {name}
                    </Anchor>
                  </Table.Td>
                  {/* Next to the name, so it stays on screen at phone width. */}
                  <Table.Td data-testid="starting-groups">
                    <Stack gap={4} align="flex-start">
                      {starting.length === 0 ? (
                        <Text size="sm" c="dimmed">
                          {t('starting.none')}
                        </Text>
                      ) : (
                        <Group gap={4}>
                          {starting.map((group) => (
                            <Badge key={group.id} variant="light" color="teal" c="teal.9">
                              {localizedName(group, language)}
                            </Badge>
                          ))}
                        </Group>
                      )}
                      <Button
                        variant="subtle"
                        size="compact-sm"
                        onClick={() => setChoosing(chatbot)}
                        aria-label={t('starting.change_named', { name })}
                        data-testid="choose-starting-groups"
                      >
                        {t('starting.change')}
                      </Button>
                    </Stack>
                  </Table.Td>
                  <Table.Td>{chatbot.llm_model.display_name}</Table.Td>
                  <Table.Td>
                    {chatbot.member_groups.length === 0 ? (
                      <Badge variant="light" color="gray" c="dark.7">
                        {t('everyone')}
                      </Badge>
                    ) : (
                      <Group gap={4}>
                        {chatbot.member_groups.map((group) => (
                          <Badge key={group.id} variant="light" color="indigo" c="indigo.9">
                            {chatbotName(group, language)}
                          </Badge>
                        ))}
                      </Group>
                    )}
                  </Table.Td>
                  <Table.Td>{t('documents', { count: chatbot.documents.length })}</Table.Td>
                  <Table.Td ta="right">
                    <Anchor component={Link} to={`/dashboard/studio/${chatbot.id}`} aria-label={t('edit_named', { name })} data-testid="edit-default-chatbot">
                      {t('edit')}
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </ListTable>
        )}
      </ListStates>
      <StartingGroupsDialog chatbot={choosing} name={choosing ? nameOf(choosing) : ''} groups={groups} onClose={() => setChoosing(null)} />
    </AdminPageFrame>
  );
}
