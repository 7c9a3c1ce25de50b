import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Group, Modal, MultiSelect, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { chatbotsApi, type Chatbot } from '../../../../shared/api';
import { CHATBOT_LIMITS } from '../../../../shared/domain/chatbots';
import { endpointKey, useEndpointMutation } from '../../api/endpointHooks';
import { useCategories, useMemberGroups, usePublicHashAvailable } from '../../api/studio';
import { LIST_SEARCH_DELAY_MS } from '../../components/list/useListState';
import { showToast } from '../../components/toast';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { ChatbotStatusBadge } from '../../components/ChatbotStatusBadge';
import { localizedName } from '../../../../shared/domain/language';
import { usePublicChatbotUrl } from '../../api/publicSessions';
import { CopyButton } from '../../components/CopyButton';

type AccessMode = 'private' | 'groups' | 'public';

/**
 * What the access body says for a choice in the dialog (spec §4: public is a request to an admin).
 * The category goes only when it was changed here, so the editor's categories are not narrowed to one.
 */
function accessBody(mode: AccessMode, groupIds: readonly string[], categoryId: string | null, initialCategoryId: string | null) {
  return {
    is_public: mode === 'public',
    member_group_ids: mode === 'groups' ? groupIds.map(Number) : [],
    ...(categoryId === initialCategoryId ? {} : { category_id: categoryId === null ? null : Number(categoryId) }),
  };
}

const modeOf = (chatbot: Chatbot): AccessMode =>
  chatbot.is_public || chatbot.waiting_publish ? 'public' : chatbot.member_group_ids.length > 0 ? 'groups' : 'private';

/** A custom public link id, checked with the server as it is typed (debounced). */
function usePublicHashCheck(chatbotId: number, value: string, current: string | null) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), LIST_SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [value]);
  const wellFormed = CHATBOT_LIMITS.publicHashPattern.test(debounced);
  const check = usePublicHashAvailable(chatbotId, debounced, wellFormed && debounced !== current);
  if (value === '' || value === current) return 'unchanged' as const;
  if (!CHATBOT_LIMITS.publicHashPattern.test(value)) return 'invalid' as const;
  if (value !== debounced || check.isPending) return 'checking' as const;
  if (check.isError) return 'unknown' as const;
  return check.data ? ('available' as const) : ('taken' as const);
}

/** The public page of a published chatbot, at its custom link when it has one: copy it or open it. */
function PublicPageLink({ chatbot }: { chatbot: Chatbot }) {
  const { t } = useTranslation('studio');
  const hash = chatbot.public_hash_id ?? chatbot.hash_id;
  const url = usePublicChatbotUrl(hash) ?? '';
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {t('access.page')}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="public-page-link">
          {url}
        </Anchor>
        <CopyButton text={url} label={t('access.copyPage')} testId="copy-public-page" />
      </Group>
    </Stack>
  );
}

function AccessForm({ chatbot, onClose }: { chatbot: Chatbot; onClose: () => void }) {
  const { t } = useTranslation('studio');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const groups = useMemberGroups();
  const categories = useCategories();
  const [mode, setMode] = useState<AccessMode>(modeOf(chatbot));
  const [groupIds, setGroupIds] = useState<string[]>(chatbot.member_group_ids.map(String));
  const initialCategoryId = chatbot.categories[0] ? String(chatbot.categories[0].id) : null;
  const [categoryId, setCategoryId] = useState<string | null>(initialCategoryId);
  const [publicHash, setPublicHash] = useState(chatbot.public_hash_id ?? '');
  const hashState = usePublicHashCheck(chatbot.id, publicHash.trim(), chatbot.public_hash_id);
  const groupsMissing = mode === 'groups' && groupIds.length === 0;
  // The server refuses to share or publish a chatbot with no name: say so before it is tried.
  const unnamed = chatbot.ko_name.trim() === '' && chatbot.en_name.trim() === '';
  const hashBlocks = hashState === 'invalid' || hashState === 'taken' || hashState === 'checking';

  // A changed custom link is saved after the access, as part of the same save: its failure is the save's (one toast, the access endpoint's message).
  const saveLink = useEndpointMutation(chatbotsApi.updateChatbot, { errorToast: false });
  const save = useEndpointMutation(chatbotsApi.updateChatbotAccess, {
    invalidates: [chatbotsApi.listChatbots],
    onSuccess: async (accessSaved) => {
      const hash = publicHash.trim();
      const saved =
        hash === (chatbot.public_hash_id ?? '')
          ? accessSaved
          : await saveLink.mutateAsync({ params: { id: chatbot.id }, body: { public_hash_id: hash === '' ? null : hash } });
      queryClient.setQueryData(endpointKey(chatbotsApi.getChatbot, { params: { id: chatbot.id } }), saved);
      showToast('success', t(saved.status === 'pending' ? 'access.requested' : 'access.saved'));
      onClose();
    },
  });

  const groupOptions = (groups.data ?? []).map((group) => ({ value: String(group.id), label: localizedName(group, language) }));
  const categoryOptions = (categories.data ?? []).map((category) => ({ value: String(category.id), label: chatbotName(category, language) }));

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!groupsMissing && !hashBlocks) save.mutate({ params: { id: chatbot.id }, body: accessBody(mode, groupIds, categoryId, initialCategoryId) });
      }}
    >
      <Stack gap="md">
        <Group gap="xs">
          <Text size="sm">{t('access.current')}</Text>
          <ChatbotStatusBadge status={chatbot.status} />
        </Group>
        {chatbot.status === 'rejected' && chatbot.publish_feedback && (
          <Alert color="red" variant="light" title={t('status.rejected')}>
            {t('feedback', { reason: chatbot.publish_feedback })}
          </Alert>
        )}
        <Radio.Group
          value={mode}
          onChange={(value) => setMode(value as AccessMode)}
          label={t('access.who')}
          description={unnamed ? t('errors.name_first') : undefined}
        >
          <Stack gap="xs" mt="xs">
            {chatbot.is_default ? (
              // A default chatbot without groups is every member's (spec §6): it is never private nor published.
              <Radio value="private" label={t('access.everyone_default')} description={t('access.everyone_default_hint')} data-testid="access-everyone" />
            ) : (
              <Radio value="private" label={t('access.private')} description={t('access.private_hint')} data-testid="access-private" />
            )}
            <Radio value="groups" disabled={unnamed} label={t('access.groups')} description={t('access.groups_hint')} data-testid="access-groups" />
            {!chatbot.is_default && (
              <Radio value="public" disabled={unnamed} label={t('access.public')} description={t('access.public_hint')} data-testid="access-public" />
            )}
          </Stack>
        </Radio.Group>
        {mode === 'groups' && (
          <MultiSelect
            label={t('access.group_select')}
            data={groupOptions}
            value={groupIds}
            onChange={setGroupIds}
            searchable
            maxValues={CHATBOT_LIMITS.sharedGroupsMax}
            error={groupsMissing ? t('access.groups_required') : undefined}
            nothingFoundMessage={t('access.no_groups')}
            data-testid="access-group-select"
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <Select
          label={t('access.category')}
          data={categoryOptions}
          value={categoryId}
          onChange={setCategoryId}
          clearable
          placeholder={t('access.no_category')}
        />
        {mode === 'public' && (
          <TextInput
            label={t('access.link')}
            description={t('access.link_hint')}
            value={publicHash}
            onChange={(event) => setPublicHash(event.currentTarget.value.toLowerCase())}
            maxLength={64}
            error={hashState === 'invalid' ? t('access.link_invalid') : hashState === 'taken' ? t('access.link_taken') : undefined}
            data-testid="public-hash-input"
          />
        )}
        {mode === 'public' && (
          <Text size="xs" c={hashState === 'available' ? 'teal.9' : 'dimmed'} role="status" mt={-8}>
            {hashState === 'available' ? t('access.link_available') : hashState === 'checking' ? t('access.link_checking') : ''}
          </Text>
        )}
        {mode === 'public' && chatbot.is_public && <PublicPageLink chatbot={chatbot} />}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={groupsMissing || hashBlocks} data-testid="access-save">
            {mode === 'public' && !chatbot.is_public && !chatbot.waiting_publish ? t('access.request') : t('save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Who may use the chatbot (spec §4, §6): only its author, member groups, or everyone once an admin approves. */
export function AccessDialog({ chatbot, opened, onClose }: { chatbot: Chatbot; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('studio');
  return (
    <Modal opened={opened} onClose={onClose} title={t('access.title')} size="lg">
      {opened && <AccessForm chatbot={chatbot} onClose={onClose} />}
    </Modal>
  );
}
