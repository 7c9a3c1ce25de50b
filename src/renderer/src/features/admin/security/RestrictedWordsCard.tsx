import { useEffect, useState } from 'react';
import { ActionIcon, Button, Card, Group, Skeleton, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminSecurityApi, isApiError, type RestrictedWord } from '../../../../../shared/api';
import { RESTRICTED_WORDS_PAGE_SIZE } from '../../../../../shared/domain/restrictedWords';
import { errorMessageKey } from '../../../api/errorMessages';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { bodySchemaOf, focusFirstError, formErrorText, zodResolver } from '../../../components/forms/zodResolver';
import { IconPlus, IconTrash } from '../../../components/icons';
import { showToast } from '../../../components/toast';
import { useListState } from '../../../components/list/useListState';
import { ListPagination, ListSearchInput } from '../../../components/list/ListParts';
import { formatDate } from '../../../i18n/formatDate';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { messageText } from '../../../i18n/keys';

const wordSchema = bodySchemaOf(adminSecurityApi.createRestrictedWord);

const isDuplicate = (error: unknown) => isApiError(error) && error.status === 409;

function AddWordForm({ onAdded }: { onAdded: () => void }) {
  const { t } = useTranslation('security');
  const form = useForm({ mode: 'controlled', initialValues: { word: '' }, validate: zodResolver(wordSchema) });
  const add = useEndpointMutation(adminSecurityApi.createRestrictedWord, {
    // A duplicate is the admin's input to fix: said under the field, which keeps the focus.
    errorToast: { when: (error) => !isDuplicate(error), overrides: [{ key: 'security:words.add_failed' }] },
    onSuccess: () => {
      form.reset();
      showToast('success', t('words.added'));
      onAdded();
    },
    onError: (error) => {
      if (isDuplicate(error)) form.setFieldError('word', messageText(errorMessageKey(error, adminSecurityApi.createRestrictedWord)));
    },
  });
  const error = form.errors.word;
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(
        (values) => add.mutate({ body: { word: values.word.trim() } }),
        (errors) => focusFirstError(form, errors),
      )}
    >
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <TextInput flex={1} label={t('words.label')} {...form.getInputProps('word')} error={formErrorText(error)} data-testid="restricted-word-input" />
        <Button type="submit" mt={25} loading={add.isPending} leftSection={<IconPlus size={16} />}>
          {t('words.add')}
        </Button>
      </Group>
    </form>
  );
}

/** The restricted word list (spec §2, §5): search, add, delete; page, size and search in the URL. */
export function RestrictedWordsCard() {
  const { t } = useTranslation('security');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const listState = useListState({ size: RESTRICTED_WORDS_PAGE_SIZE });
  const { page, setPage } = listState;
  const list = useEndpointQuery(
    adminSecurityApi.listRestrictedWords,
    { query: { page, size: listState.size, search_term: listState.search } },
    { placeholderData: keepPreviousData, errorToast: true },
  );
  const [pendingDelete, setPendingDelete] = useState<RestrictedWord | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: endpointKey(adminSecurityApi.listRestrictedWords) });

  // Deleting the last word of the last page leaves an empty page: step back to the one before.
  const totalPages = list.data?.total_pages ?? 0;
  useEffect(() => {
    if (list.data && page > 1 && page > totalPages) setPage(Math.max(totalPages, 1));
  }, [list.data, page, totalPages, setPage]);

  const remove = useEndpointMutation(adminSecurityApi.deleteRestrictedWord, {
    errorToast: { overrides: [{ key: 'security:words.delete_failed' }] },
    onSuccess: () => showToast('success', t('words.deleted')),
    onSettled: () => {
      setPendingDelete(null);
      return refresh();
    },
  });

  const items = list.data?.items ?? [];
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="restricted-words-title">
      <Title order={2} size="h4" id="restricted-words-title" mb="md">
        {t('words.title')}
      </Title>
      <AddWordForm onAdded={() => void refresh()} />
      <ListSearchInput list={listState} mt="lg" type="search" aria-label={t('words.search')} placeholder={t('words.search')} />
      {list.isPending ? (
        <Skeleton h={120} mt="md" />
      ) : items.length === 0 ? (
        <Text c="dimmed" size="sm" ta="center" py="xl">
          {listState.isFiltered ? t('words.no_match') : t('words.empty')}
        </Text>
      ) : (
        <Table mt="md" verticalSpacing="xs" data-testid="restricted-words">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('words.word')}</Table.Th>
              <Table.Th>{t('words.added_at')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((word) => (
              <Table.Tr key={word.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{word.word}</Table.Td>
                <Table.Td c="dimmed">{formatDate(word.created_at, language)}</Table.Td>
                <Table.Td ta="right">
                  <Tooltip label={t('words.delete', { word: word.word })}>
                    <ActionIcon variant="subtle" color="red" aria-label={t('words.delete', { word: word.word })} onClick={() => setPendingDelete(word)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ListPagination list={listState} totalPages={totalPages} />
      <ConfirmDialog
        opened={pendingDelete !== null}
        title={t('words.delete_title')}
        body={t('words.delete_body', { word: pendingDelete?.word ?? '' })}
        cancelLabel={t('words.cancel')}
        confirmLabel={t('words.confirm')}
        loading={remove.isPending}
        onCancel={() => setPendingDelete(null)}
        onConfirm={() => pendingDelete && remove.mutate({ params: { id: pendingDelete.id } })}
      />
    </Card>
  );
}
