import { memo, useCallback, useMemo, useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, Modal, NativeSelect, Progress, Select, Stack, Table, Tabs, Text, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { adminInvitationsApi, type AdminMemberGroup } from '../../../../../shared/api';
import type { EndpointResponse } from '../../../../../shared/api/endpoint';
import { validateEmail, type ValidationKey } from '../../../../../shared/domain/validation';
import { type InviteRow, inviteInBatches } from '../../../api/adminInvitations';
import { useEndpointMutation } from '../../../api/endpointHooks';
import { errorMessageKey } from '../../../api/errorMessages';
import { IconPlus, IconTrash } from '../../../components/icons';
import { scrollRegionProps } from '../../../components/scrollRegion';
import { messageText } from '../../../i18n/keys';

interface RowDraft {
  key: number;
  email: string;
  name: string;
  groupId: string | null;
}

type RowResult = EndpointResponse<typeof adminInvitationsApi.bulkInvite>['results'][number];

let nextKey = 1;
const emptyRow = (groupId: string | null = null): RowDraft => ({ key: nextKey++, email: '', name: '', groupId });

/** Pasted lines: `email`, or `email, name` (comma, semicolon or tab between them). */
export function parseInviteLines(text: string, groupId: string | null): RowDraft[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [email = '', ...rest] = line.split(/[,;\t]/).map((cell) => cell.trim());
      return { ...emptyRow(groupId), email, name: rest.join(' ').trim() };
    });
}

const RESULT_COLORS: Record<RowResult['result'], string> = {
  invited: 'green',
  invalid_email: 'red',
  already_exists: 'gray',
  already_invited: 'gray',
  already_requested: 'gray',
  invitation_email_failed: 'red',
};

/**
 * Invite several people at once (spec §2 "invited members"): rows of email, name and group, typed
 * or pasted as lines, any number of them: they go out in batches with a progress bar (spec §4 bulk
 * upload, §5); the answer says per row what happened (spec §8 row-level errors). A refused batch
 * (402 the plan's cap, 403 an SSO admin) stops the rest; its error shows above what was answered.
 */
export function InviteDialog({
  opened,
  groups,
  groupName,
  onClose,
  onInvited,
}: {
  opened: boolean;
  groups: AdminMemberGroup[];
  groupName: (group: AdminMemberGroup) => string;
  onClose: () => void;
  onInvited: () => void;
}) {
  const { t } = useTranslation('adminInvitations');
  const [rows, setRows] = useState<RowDraft[]>(() => [emptyRow()]);
  const [pasted, setPasted] = useState('');
  const [pastedGroup, setPastedGroup] = useState<string | null>(null);
  const [tab, setTab] = useState<string | null>('rows');
  const [showErrors, setShowErrors] = useState(false);
  const [results, setResults] = useState<RowResult[] | null>(null);
  const groupOptions = useMemo(() => groups.map((group) => ({ value: String(group.id), label: groupName(group) })), [groups, groupName]);
  const rowGroupChoices = useMemo(() => [{ value: '', label: t('default_group') }, ...groupOptions], [groupOptions, t]);
  const filled = rows.filter((row) => row.email.trim() || row.name.trim());

  /** Rows sent so far of how many, while batches are going out. */
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [batchError, setBatchError] = useState<unknown>(null);
  // Sent in batches; a refused batch is said in the dialog (never a rejection: inviteInBatches returns it).
  const invite = useEndpointMutation(adminInvitationsApi.bulkInvite, {
    send: (members: InviteRow[]) => {
      setProgress({ done: 0, total: members.length });
      return inviteInBatches(members, (done) => setProgress({ done, total: members.length }));
    },
    onSuccess: (answer) => {
      setProgress(null);
      if (answer.results.length > 0) setResults(answer.results);
      setBatchError(answer.error);
      onInvited();
    },
  });

  // Stable, so a progress tick or one row's edit does not re-render the other rows (600 pasted rows).
  const update = useCallback(
    (key: number, patch: Partial<RowDraft>) => setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row))),
    [],
  );
  const remove = useCallback((key: number) => setRows((current) => current.filter((row) => row.key !== key)), []);
  const submit = () => {
    setShowErrors(true);
    if (filled.length === 0 || filled.some((row) => validateEmail(row.email))) return;
    invite.mutate(
      filled.map((row) => ({
        email: row.email.trim(),
        ...(row.name.trim() ? { name: row.name.trim() } : {}),
        ...(row.groupId ? { member_group_id: Number(row.groupId) } : {}),
      })),
    );
  };
  const addPasted = () => {
    const parsed = parseInviteLines(pasted, pastedGroup);
    if (parsed.length === 0) return;
    setRows((current) => [...current.filter((row) => row.email.trim() || row.name.trim()), ...parsed]);
    setPasted('');
    setTab('rows');
  };
  const invitedCount = results?.filter((row) => row.result === 'invited').length ?? 0;

  return (
    <Modal opened={opened} onClose={onClose} size="xl" title={t('invite_title')}>
      {results ? (
        <Stack gap="sm" data-testid="invite-results">
          {batchError !== null && (
            <Alert color="red" data-testid="invite-error">
              {t('batch_stopped', { sent: results.length, error: messageText(errorMessageKey(batchError, adminInvitationsApi.bulkInvite)) })}
            </Alert>
          )}
          <Alert color={invitedCount === results.length ? 'green' : 'yellow'} data-testid="invite-summary">
            {t('results_summary', { invited: invitedCount, total: results.length })}
          </Alert>
          <Table.ScrollContainer minWidth={360} {...scrollRegionProps(t('results_caption'))}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('email')}</Table.Th>
                  <Table.Th>{t('result')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {results.map((row, index) => (
                  <Table.Tr key={`${row.email}-${index}`}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.email}</Table.Td>
                    <Table.Td>
                      <Badge color={RESULT_COLORS[row.result]} variant="light">
                        {t(`row_result.${row.result}`)}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="flex-end">
            <Button onClick={onClose} data-autofocus>
              {t('done')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          {batchError !== null && (
            <Alert color="red" data-testid="invite-error">
              {messageText(errorMessageKey(batchError, adminInvitationsApi.bulkInvite))}
            </Alert>
          )}
          {progress && (
            <Stack gap={4} data-testid="invite-progress">
              <Text size="sm" id="invite-progress-label" role="status">
                {t('sending_progress', { done: progress.done, total: progress.total })}
              </Text>
              <Progress value={Math.round((progress.done / progress.total) * 100)} aria-labelledby="invite-progress-label" />
            </Stack>
          )}
          <Tabs value={tab} onChange={setTab}>
            <Tabs.List>
              <Tabs.Tab value="rows">{t('tab_rows', { count: filled.length })}</Tabs.Tab>
              <Tabs.Tab value="paste">{t('tab_paste')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="rows" pt="sm">
              <Stack gap="xs">
                {rows.map((row, index) => (
                  <InviteRowEditor
                    key={row.key}
                    row={row}
                    index={index}
                    groupChoices={rowGroupChoices}
                    error={showErrors && (row.email.trim() || row.name.trim() || filled.length === 0) ? validateEmail(row.email) : null}
                    removable={rows.length > 1}
                    onChange={update}
                    onRemove={remove}
                  />
                ))}
                <Group>
                  <Button variant="default" size="xs" leftSection={<IconPlus size={16} />} onClick={() => setRows((current) => [...current, emptyRow()])}>
                    {t('add_row')}
                  </Button>
                </Group>
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="paste" pt="sm">
              <Stack gap="xs">
                <Textarea
                  label={t('paste_label')}
                  description={t('paste_hint')}
                  autosize
                  minRows={5}
                  maxRows={12}
                  value={pasted}
                  onChange={(event) => setPasted(event.currentTarget.value)}
                />
                <Select label={t('paste_group')} placeholder={t('default_group')} data={groupOptions} value={pastedGroup} onChange={setPastedGroup} clearable />
                <Group>
                  <Button variant="light" onClick={addPasted} disabled={!pasted.trim()}>
                    {t('paste_add', { count: parseInviteLines(pasted, null).length })}
                  </Button>
                </Group>
              </Stack>
            </Tabs.Panel>
          </Tabs>
          {showErrors && filled.length === 0 && (
            <Text size="sm" c="red">
              {t('no_rows')}
            </Text>
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button onClick={submit} loading={invite.isPending} data-testid="send-invitations">
              {t('send', { count: filled.length })}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** One row of the editor: email, name, group and its remove button. */
const InviteRowEditor = memo(function InviteRowEditor({
  row,
  index,
  groupChoices,
  error,
  removable,
  onChange,
  onRemove,
}: {
  row: RowDraft;
  index: number;
  groupChoices: Array<{ value: string; label: string }>;
  error: ValidationKey | null;
  removable: boolean;
  onChange: (key: number, patch: Partial<RowDraft>) => void;
  onRemove: (key: number) => void;
}) {
  const { t } = useTranslation(['adminInvitations', 'common']);
  return (
    <Group gap="xs" align="flex-start" wrap="wrap" data-testid="invite-row">
      <TextInput
        flex="2 1 200px"
        label={t('email')}
        aria-label={t('email_n', { n: index + 1 })}
        type="email"
        value={row.email}
        onChange={(event) => onChange(row.key, { email: event.currentTarget.value })}
        error={error ? t(`common:${error}`) : undefined}
      />
      <TextInput
        flex="1 1 140px"
        label={t('name')}
        aria-label={t('name_n', { n: index + 1 })}
        value={row.name}
        onChange={(event) => onChange(row.key, { name: event.currentTarget.value })}
      />
      {/* A native select: hundreds of pasted rows render at once, and the first choice clears the group. */}
      <NativeSelect
        flex="1 1 140px"
        label={t('group')}
        aria-label={t('group_n', { n: index + 1 })}
        data={groupChoices}
        value={row.groupId ?? ''}
        onChange={(event) => onChange(row.key, { groupId: event.currentTarget.value || null })}
      />
      <ActionIcon mt={25} variant="subtle" color="red" aria-label={t('remove_row', { n: index + 1 })} disabled={!removable} onClick={() => onRemove(row.key)}>
        <IconTrash size={16} />
      </ActionIcon>
    </Group>
  );
});
