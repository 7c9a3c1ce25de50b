import { Anchor, Badge, Group, Table, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { adminChatbotsApi } from '../../../../../shared/api';
import { chatbotName } from '../../../../../shared/domain/chatbots';
import { useAdminChatbots } from '../../../api/adminChatbots';
import { errorMessageKey } from '../../../api/errorMessages';
import { ListStates } from '../../../components/ListStates';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { AdminPageFrame } from '../AdminPageFrame';

/** Every member starts with these; a workspace has a handful, so one page holds them all. */
const DEFAULT_CHATBOTS_PAGE = { page: 1, size: 100, is_default: true } as const;

/**
 * The console's default chatbots (spec §1: members chat with default chatbots): each with its
 * model, the groups that see it (everyone when none) and its documents. Edit opens the chatbot in
 * the Studio editor, which lets only admins change a default chatbot (instructions, model,
 * documents, visible groups); members never see an edit for them, and the server refuses them.
 */
export default function DefaultChatbotsPage() {
  const { t } = useTranslation('defaultChatbots');
  const language = useResolvedLanguage();
  const list = useAdminChatbots(DEFAULT_CHATBOTS_PAGE);
  const items = list.data?.items ?? [];
  return (
    <AdminPageFrame title={t('title')} description={t('description')}>
      <ListStates
        query={list}
        count={items.length}
        errorTitle={(error) => t(errorMessageKey(error, adminChatbotsApi.listAdminChatbots))}
        retryLabel={t('retry')}
        empty={t('empty')}
      >
        {() => (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" data-testid="default-chatbots-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('column.name')}</Table.Th>
                  <Table.Th>{t('column.model')}</Table.Th>
                  <Table.Th>{t('column.groups')}</Table.Th>
                  <Table.Th>{t('column.documents')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('column.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((chatbot) => {
                  const name = chatbotName(chatbot, language) || t('untitled');
                  return (
                    <Table.Tr key={chatbot.id} data-testid="default-chatbot-row">
                      {/* The name opens the editor too: on a phone the Edit column is off-screen. */}
                      <Table.Td>
                        <Anchor component={Link} to={`/dashboard/studio/${chatbot.id}`} fw={500} tabIndex={-1}>
                          {name}
                        </Anchor>
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
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </ListStates>
    </AdminPageFrame>
  );
}
