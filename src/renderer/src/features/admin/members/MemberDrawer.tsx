import { useState } from 'react';
import { Alert, Badge, Button, Checkbox, Divider, Drawer, Group, MultiSelect, Select, Skeleton, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminMembersApi, type AdminMember } from '../../../../../shared/api';
import type { EndpointBody } from '../../../../../shared/api/endpoint';
import { MEMBER_QUERIES } from '../../../api/adminMembers';
import { errorMessageKey } from '../../../api/errorMessages';
import { endpointKey, invalidateEndpoints, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { useMemberGroups } from '../../../api/studio';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { zodResolver } from '../../../components/forms/zodResolver';
import { showToast } from '../../../components/toast';
import { formatDate } from '../../../i18n/formatDate';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { useUserSession } from '../../../stores/userSession';
import { localizedName } from '../../../../../shared/domain/language';
import { MemberQuotaInput } from './MemberQuotaInput';
import type { ParseKeys } from 'i18next';
import { messageText } from '../../../i18n/keys';

interface FormValues {
  name: string;
  default_member_group_id: string | null;
  member_group_ids: string[];
  custom_fields: Record<string, string>;
  group_default_quota: boolean;
  credit_quota: number | string;
}

const toValues = (member: AdminMember): FormValues => ({
  name: member.name,
  default_member_group_id: member.default_member_group_id === null ? null : String(member.default_member_group_id),
  member_group_ids: member.member_groups.map((group) => String(group.id)).filter((id) => id !== String(member.default_member_group_id)),
  custom_fields: Object.fromEntries(member.custom_fields.map((field) => [String(field.custom_field_id), field.value ?? ''])),
  group_default_quota: member.credit_quota === null,
  credit_quota: member.credit_quota ?? '',
});

/** The PATCH body of the edit form: name, groups (default + additional), custom fields, credit limit. */
const toPatch = (values: FormValues): EndpointBody<typeof adminMembersApi.patchAdminMember> => ({
  name: values.name,
  ...(values.default_member_group_id
    ? {
        default_member_group_id: Number(values.default_member_group_id),
        member_group_ids: [values.default_member_group_id, ...values.member_group_ids].map(Number),
      }
    : {}),
  custom_fields: Object.entries(values.custom_fields).map(([id, value]) => ({ custom_field_id: Number(id), value })),
  credit_quota: values.group_default_quota || values.credit_quota === '' ? null : Number(values.credit_quota),
});

function MemberForm({ member, onDone }: { member: AdminMember; onDone: () => void }) {
  const { t } = useTranslation('adminMembers');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const ownId = useUserSession((state) => state.member?.id);
  const groups = useMemberGroups();
  const [confirm, setConfirm] = useState<'admin' | 'status' | 'delete' | null>(null);
  const form = useForm<FormValues>({
    initialValues: toValues(member),
    validate: (values) => {
      const errors = zodResolver(adminMembersApi.adminMemberPatchSchema)(toPatch(values));
      return Object.fromEntries(Object.entries(errors).map(([path, key]) => [path, key && messageText(key)]));
    },
  });
  const refresh = () => void invalidateEndpoints(queryClient, MEMBER_QUERIES);

  const save = useEndpointMutation(adminMembersApi.patchAdminMember, {
    onSuccess: (saved, { body }) => {
      showToast('success', t(savedToastKey(body), { name: saved.name }));
      queryClient.setQueryData(endpointKey(adminMembersApi.getAdminMember, { params: { id: member.id } }), saved);
      form.resetDirty(toValues(saved));
      setConfirm(null);
      refresh();
    },
  });
  const patch = (body: EndpointBody<typeof adminMembersApi.patchAdminMember>) => save.mutate({ params: { id: member.id }, body });
  const remove = useEndpointMutation(adminMembersApi.deleteAdminMember, {
    onSuccess: () => {
      showToast('success', t('deleted_toast', { count: 1 }));
      setConfirm(null);
      refresh();
      onDone();
    },
  });

  const groupOptions = (groups.data ?? []).map((group) => ({ value: String(group.id), label: localizedName(group, language) }));
  const isSelf = member.id === ownId;
  // Only approved members are deactivated, and only deactivated ones reactivated (pending ones go through requests).
  const statusAction = member.member_status === 'approved' ? 'deactivate' : member.member_status === 'deactivated' ? 'reactivate' : null;

  return (
    <form onSubmit={form.onSubmit((values) => patch(toPatch(values)))} noValidate>
      <Stack gap="md">
        <Group gap="xs">
          <Badge variant="light" color={member.member_status === 'approved' ? 'teal' : 'gray'} c={member.member_status === 'approved' ? 'teal.9' : 'dark.7'}>
            {t(`status.${member.member_status}`)}
          </Badge>
          <Badge variant="light" color="gray" c="dark.7">
            {t(`type.${member.member_type}`)}
          </Badge>
          {member.is_admin && (
            <Badge variant="light" color="indigo" c="indigo.9">
              {t('admin_badge')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {member.email} · {t('joined', { date: formatDate(member.created_at, language) })}
          {member.sso_id ? ` · ${t('sso_connected', { id: member.sso_id })}` : ''}
        </Text>
        <TextInput label={t('field.name')} required maxLength={100} {...form.getInputProps('name')} data-testid="member-name" />
        <Select
          label={t('field.default_group')}
          data={groupOptions}
          {...form.getInputProps('default_member_group_id')}
          allowDeselect={false}
          data-testid="member-default-group"
          comboboxProps={{ withinPortal: true }}
        />
        <MultiSelect
          label={t('field.additional_groups')}
          data={groupOptions.filter((option) => option.value !== form.values.default_member_group_id)}
          {...form.getInputProps('member_group_ids')}
          data-testid="member-groups"
          comboboxProps={{ withinPortal: true }}
        />
        {member.custom_fields.map((field) => (
          <TextInput
            key={field.custom_field_id}
            label={localizedName(field, language)}
            required={field.is_required}
            inputMode={field.field_type === 'number' ? 'numeric' : undefined}
            maxLength={1000}
            {...form.getInputProps(`custom_fields.${field.custom_field_id}`)}
          />
        ))}
        <Divider label={t('credit_heading')} labelPosition="left" />
        <Checkbox
          label={t('field.group_default_quota')}
          {...form.getInputProps('group_default_quota', { type: 'checkbox' })}
          data-testid="member-group-quota"
        />
        {!form.values.group_default_quota && <MemberQuotaInput {...form.getInputProps('credit_quota')} data-testid="member-credit-quota" />}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!form.isDirty()} data-testid="member-save">
            {t('save')}
          </Button>
        </Group>

        <Divider label={t('danger_heading')} labelPosition="left" />
        <Switch
          label={t('field.is_admin')}
          description={isSelf ? t('own_admin_hint') : t('admin_hint')}
          checked={member.is_admin}
          disabled={isSelf}
          onChange={() => setConfirm('admin')}
          data-testid="member-admin"
        />
        <Group>
          {statusAction && (
            <Button variant="default" disabled={isSelf} onClick={() => setConfirm('status')} data-testid={`member-${statusAction}`}>
              {t(`${statusAction}.action`)}
            </Button>
          )}
          <Button color="red" variant="light" disabled={isSelf} onClick={() => setConfirm('delete')} data-testid="member-delete">
            {t('delete')}
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirm === 'admin'}
        title={t(member.is_admin ? 'remove_admin_title' : 'grant_admin_title', { name: member.name })}
        body={t(member.is_admin ? 'remove_admin_body' : 'grant_admin_body', { name: member.name })}
        cancelLabel={t('cancel')}
        confirmLabel={t(member.is_admin ? 'remove_admin' : 'grant_admin')}
        loading={save.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => patch({ is_admin: !member.is_admin })}
      />
      {statusAction && (
        <ConfirmDialog
          opened={confirm === 'status'}
          title={t(`${statusAction}.title`, { name: member.name, count: 1 })}
          body={t(`${statusAction}.body`, { count: 1 })}
          cancelLabel={t('cancel')}
          confirmLabel={t(`${statusAction}.action`)}
          loading={save.isPending}
          restoring={statusAction === 'reactivate'}
          onCancel={() => setConfirm(null)}
          onConfirm={() => patch({ member_status: statusAction === 'deactivate' ? 'deactivated' : 'approved' })}
        />
      )}
      <ConfirmDialog
        opened={confirm === 'delete'}
        title={t('delete_title', { name: member.name })}
        body={t('delete_body', { count: 1 })}
        cancelLabel={t('cancel')}
        confirmLabel={t('delete')}
        loading={remove.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => remove.mutate({ params: { id: member.id } })}
      />
    </form>
  );
}

/** The success toast of a drawer save: admin rights and status changes say what happened. */
function savedToastKey(patch: EndpointBody<typeof adminMembersApi.patchAdminMember>): ParseKeys<'adminMembers'> {
  if (patch.member_status !== undefined) return patch.member_status === 'deactivated' ? 'deactivate.toast' : 'reactivate.toast';
  if (patch.is_admin !== undefined) return patch.is_admin ? 'admin_granted_toast' : 'admin_removed_toast';
  return 'saved_toast';
}

/** A member's detail beside the list: edit, admin rights and deletion, each destructive step confirmed. */
export function MemberDrawer({ memberId, onClose }: { memberId: number | null; onClose: () => void }) {
  const { t } = useTranslation('adminMembers');
  const member = useEndpointQuery(adminMembersApi.getAdminMember, { params: { id: memberId ?? 0 } }, { enabled: memberId !== null });
  return (
    <Drawer
      opened={memberId !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={member.data?.name ?? t('member')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {member.isPending && memberId !== null && (
        <Stack gap="sm" aria-busy="true">
          {[0, 1, 2, 3].map((row) => (
            <Skeleton key={row} h={40} />
          ))}
        </Stack>
      )}
      {member.isError && <Alert color="red" title={messageText(errorMessageKey(member.error, adminMembersApi.getAdminMember))} />}
      {member.data && <MemberForm key={`${member.data.id}:${member.dataUpdatedAt}`} member={member.data} onDone={onClose} />}
    </Drawer>
  );
}
