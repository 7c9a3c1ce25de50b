import { useState } from 'react';
import { Alert, Button, Checkbox, Group, List, Loader, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { groupRequestsApi, type MemberGroupsState } from '../../../../shared/api';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../api/endpointHooks';
import { errorKeyOf } from '../../api/errorMessages';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { localizedName } from '../../../../shared/domain/language';
import { type MessageKey, messageText } from '../../i18n/keys';

type Groups = MemberGroupsState['groups'];

/** My page: the member's groups, and a group change that waits for an admin or applies at once (tenant setting; spec §2, §4). */
export function GroupsSection({ memberId }: { memberId: number }) {
  const { t } = useTranslation('account');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const state = useEndpointQuery(groupRequestsApi.getMemberGroups, { params: { id: memberId } });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [defaultId, setDefaultId] = useState<string | null>(null);
  const [failure, setFailure] = useState<MessageKey | null>(null);
  const [changed, setChanged] = useState(false);
  // The request and its withdrawal answer the new state, which replaces the cached one; a refusal is said above the form.
  const changeOptions = (applies: () => boolean) => ({
    errorToast: false,
    onMutate: () => {
      setFailure(null);
      setChanged(false);
    },
    onSuccess: (next: MemberGroupsState) => {
      queryClient.setQueryData(endpointKey(groupRequestsApi.getMemberGroups, { params: { id: memberId } }), next);
      setChosen(null);
      setDefaultId(null);
      setChanged(applies());
    },
    onError: (error: Error) => setFailure(errorKeyOf(error)),
  });
  const request = useEndpointMutation(
    groupRequestsApi.requestGroupChange,
    changeOptions(() => state.data?.approval_required === false),
  );
  const withdraw = useEndpointMutation(
    groupRequestsApi.withdrawGroupChange,
    changeOptions(() => false),
  );
  const busy = request.isPending || withdraw.isPending;

  if (state.isPending) return <Loader size="sm" aria-label={t('my_page.groups_loading')} />;
  if (state.isError)
    return (
      <Alert color="red" role="alert">
        {messageText(errorKeyOf(state.error))}
      </Alert>
    );
  const { current, pending, groups, approval_required: approvalRequired } = state.data;
  const nameOf = (groups: Groups, id: number) => {
    const group = groups.find((g) => g.id === id);
    return group ? localizedName(group, language) : String(id);
  };
  const names = (ids: number[], defaultGroup: number | null) =>
    ids.map((id) => (id === defaultGroup ? t('my_page.default_group', { name: nameOf(groups, id) }) : nameOf(groups, id)));
  const selected = chosen ?? current.member_group_ids.map(String);
  const selectedDefault = defaultId && selected.includes(defaultId) ? defaultId : (selected[0] ?? null);

  return (
    <Stack gap="md" maw={480}>
      <div>
        <Text size="sm" fw={500}>
          {t('my_page.current_groups')}
        </Text>
        <List size="sm" data-testid="my-groups">
          {names(current.member_group_ids, current.default_member_group_id).map((name) => (
            <List.Item key={name}>{name}</List.Item>
          ))}
        </List>
      </div>
      {failure && (
        <Alert color="red" variant="light" role="alert">
          {messageText(failure)}
        </Alert>
      )}
      {changed && (
        <Alert color="green" variant="light" role="status" data-testid="groups-changed">
          {t('my_page.groups_changed')}
        </Alert>
      )}
      {pending ? (
        <Alert color="indigo" variant="light" role="status" data-testid="group-request-pending">
          <Stack gap="xs">
            <Text size="sm">{t('my_page.request_pending', { groups: names(pending.member_group_ids, pending.default_member_group_id).join(', ') })}</Text>
            <Button
              variant="default"
              size="xs"
              loading={busy}
              onClick={() => withdraw.mutate({ params: { id: memberId } })}
              style={{ alignSelf: 'flex-start' }}
            >
              {t('my_page.withdraw_request')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!selectedDefault || selected.length === 0) return;
            request.mutate({ params: { id: memberId }, body: { default_member_group_id: Number(selectedDefault), member_group_ids: selected.map(Number) } });
          }}
        >
          <Stack gap="sm">
            <Checkbox.Group label={t('my_page.choose_groups')} value={selected} onChange={setChosen}>
              <Group gap="md" mt={6}>
                {groups.map((group) => (
                  <Checkbox key={group.id} value={String(group.id)} label={nameOf(groups, group.id)} />
                ))}
              </Group>
            </Checkbox.Group>
            <Select
              label={t('my_page.choose_default')}
              data={selected.map((id) => ({ value: id, label: nameOf(groups, Number(id)) }))}
              value={selectedDefault}
              onChange={setDefaultId}
              allowDeselect={false}
            />
            <Button type="submit" variant="light" loading={busy} disabled={selected.length === 0} style={{ alignSelf: 'flex-start' }}>
              {t(approvalRequired ? 'my_page.request_change' : 'my_page.change_groups')}
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
