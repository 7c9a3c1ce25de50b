import { useState } from 'react';
import { Button, Group, Modal, MultiSelect, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminChatbotsApi, chatbotsApi, type AdminChatbot, type AdminMemberGroup } from '../../../../../shared/api';
import { CHATBOT_LIMITS } from '../../../../../shared/domain/chatbots';
import { localizedName } from '../../../../../shared/domain/language';
import { useEndpointMutation } from '../../../api/endpointHooks';
import { showToast } from '../../../components/toast';
import { useResolvedLanguage } from '../../../i18n/useLanguage';

/**
 * The groups a default chatbot may start: only groups that see it (every group when it is
 * everyone's), as the server requires (422 otherwise).
 */
export const startableGroups = (chatbot: AdminChatbot, groups: readonly AdminMemberGroup[]) =>
  chatbot.member_group_ids.length === 0 ? groups : groups.filter((group) => chatbot.member_group_ids.includes(group.id));

/** Only the starting groups change: who sees it and its category go back as they are. */
const startingGroupsBody = (chatbot: AdminChatbot, ids: readonly string[]) => ({
  is_public: false,
  member_group_ids: chatbot.member_group_ids,
  default_member_group_ids: ids.map(Number),
});

function StartingGroupsForm({
  chatbot,
  name,
  groups,
  onClose,
}: {
  chatbot: AdminChatbot;
  name: string;
  groups: readonly AdminMemberGroup[];
  onClose: () => void;
}) {
  const { t } = useTranslation('defaultChatbots');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const [ids, setIds] = useState<string[]>(chatbot.default_member_groups.map(String));
  const save = useEndpointMutation(chatbotsApi.updateChatbotAccess, {
    invalidates: [adminChatbotsApi.listAdminChatbots],
    errorToast: { overrides: [{ endpoint: chatbotsApi.updateChatbotAccess, status: 422, key: 'defaultChatbots:starting.refused' }] },
    onSuccess: () => {
      // Members' chatbot lists put a group's starting chatbot first.
      void queryClient.invalidateQueries({ queryKey: ['chatbots'] });
      showToast('success', t('starting.saved', { name }));
      onClose();
    },
  });
  const options = startableGroups(chatbot, groups).map((group) => ({ value: String(group.id), label: localizedName(group, language) }));
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ params: { id: chatbot.id }, body: startingGroupsBody(chatbot, ids) });
      }}
    >
      <Stack gap="md">
        <Text size="sm" id="starting-groups-hint">
          {t('starting.hint')}
        </Text>
        <MultiSelect
          label={t('starting.select')}
          aria-describedby="starting-groups-hint"
          data={options}
          value={ids}
          onChange={setIds}
          searchable
          clearable
          maxValues={CHATBOT_LIMITS.sharedGroupsMax}
          placeholder={ids.length === 0 ? t('starting.none') : undefined}
          nothingFoundMessage={t('starting.no_groups')}
          data-autofocus
          data-testid="starting-group-select"
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="starting-save">
            {t('save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Choose the member groups that start with a default chatbot (spec §3 default_member_groups). */
export function StartingGroupsDialog({
  chatbot,
  name,
  groups,
  onClose,
}: {
  chatbot: AdminChatbot | null;
  name: string;
  groups: readonly AdminMemberGroup[];
  onClose: () => void;
}) {
  const { t } = useTranslation('defaultChatbots');
  return (
    <Modal opened={chatbot !== null} onClose={onClose} title={t('starting.title', { name })}>
      {chatbot && <StartingGroupsForm chatbot={chatbot} name={name} groups={groups} onClose={onClose} />}
    </Modal>
  );
}
