import { Alert, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminMemberGroupsApi, isApiError, type AdminMemberGroup } from '../../../../../shared/api';
import { createGroup, patchGroup } from '../../../api/adminMemberGroups';
import { errorMessageKey } from '../../../api/errorMessages';
import { FormDialogButtons } from '../../../components/forms/FormDialogButtons';
import { bodySchemaOf, focusFirstError, zodResolver } from '../../../components/forms/zodResolver';
import { IconLock } from '../../../components/icons';
import { showToast } from '../../../components/toast';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { localizedName } from '../../../../../shared/domain/language';

const nameSchema = bodySchemaOf(adminMemberGroupsApi.createMemberGroup);

/** A form's error: a `validation.…` key of common, or a message already translated. */
function useFieldError() {
  const { t } = useTranslation('adminGroups');
  return (error: unknown) => {
    if (!error) return undefined;
    const message = String(error);
    if (message.startsWith('validation.')) return t(`common:${message}`);
    return message.startsWith('adminGroups:validation.') ? t(message) : message;
  };
}

/**
 * Create a group, or rename one (`group`): a Korean or an English name or both, each unique in the
 * tenant (the other language shows the one given). A name in use is
 * said under its field (the server names which); other failures, such as 403 (sign out and
 * retry, spec §6), in a toast.
 */
export function GroupNameDialog({ group, opened, onClose, onSaved }: { group: AdminMemberGroup | null; opened: boolean; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('adminGroups');
  const fieldError = useFieldError();
  const form = useForm({
    mode: 'controlled',
    initialValues: { ko_name: group?.ko_name ?? '', en_name: group?.en_name ?? '' },
    validate: zodResolver(nameSchema),
  });
  const endpoint = group ? adminMemberGroupsApi.patchMemberGroup : adminMemberGroupsApi.createMemberGroup;
  const save = useMutation({
    mutationFn: (values: { ko_name: string; en_name: string }) => (group ? patchGroup(group.id, values) : createGroup(values)),
    onSuccess: () => {
      showToast('success', t(group ? 'renamed' : 'created'));
      onSaved();
      onClose();
    },
    onError: (error) => {
      const message = t(errorMessageKey(error, endpoint));
      const field = isApiError(error) && error.status === 409 ? (error.body?.details as { field?: string } | undefined)?.field : undefined;
      if (isApiError(error) && error.status === 409) form.setFieldError(field === 'ko_name' ? 'ko_name' : 'en_name', message);
      else showToast('error', message);
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t(group ? 'rename_title' : 'create_title')}>
      <form noValidate onSubmit={form.onSubmit((values) => save.mutate({ ko_name: values.ko_name.trim(), en_name: values.en_name.trim() }), (errors) => focusFirstError(form, errors))}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed" id="group-names-hint">
            {t('names_hint')}
          </Text>
          <TextInput label={t('ko_name')} aria-describedby="group-names-hint" data-autofocus {...form.getInputProps('ko_name')} error={fieldError(form.errors.ko_name)} />
          <TextInput label={t('en_name')} aria-describedby="group-names-hint" {...form.getInputProps('en_name')} error={fieldError(form.errors.en_name)} />
          <FormDialogButtons gap="md" mt="sm" cancelLabel={t('cancel')} onCancel={onClose} submitLabel={t(group ? 'save' : 'create')} saving={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}

/** An empty field is "no limit" (null). */
const toQuota = (value: number | string) => (value === '' ? null : Number(value));

/**
 * The group's monthly credit quota and each member's default quota. The default group's are
 * locked (spec §5): the fields are shown read-only with the reason.
 */
export function GroupQuotaDialog({ group, onClose, onSaved }: { group: AdminMemberGroup | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('adminGroups');
  const language = useResolvedLanguage();
  const locked = group?.is_default ?? false;
  const form = useForm<{ credit_quota: number | string; member_credit_quota: number | string }>({
    mode: 'controlled',
    initialValues: { credit_quota: group?.credit_quota ?? '', member_credit_quota: group?.member_credit_quota ?? '' },
  });
  const save = useMutation({
    mutationFn: (values: typeof form.values) =>
      patchGroup(group!.id, { credit_quota: toQuota(values.credit_quota), member_credit_quota: toQuota(values.member_credit_quota) }),
    onSuccess: () => {
      showToast('success', t('quota_saved'));
      onSaved();
      onClose();
    },
    onError: (error) => showToast('error', t(errorMessageKey(error, adminMemberGroupsApi.patchMemberGroup))),
  });
  return (
    <Modal opened={group !== null} onClose={onClose} title={t('quota_title', { name: group ? localizedName(group, language) : '' })} closeButtonProps={{ 'aria-label': t('close') }}>
      <form noValidate onSubmit={form.onSubmit((values) => save.mutate(values))}>
        <Stack gap="sm">
          {locked && (
            <Alert color="gray" icon={<IconLock size={16} />} data-testid="quota-locked">
              {t('quota_locked')}
            </Alert>
          )}
          <NumberInput
            label={t('credit_quota')}
            description={t('credit_quota_hint')}
            min={0}
            max={1e12}
            thousandSeparator=","
            disabled={locked}
            data-autofocus
            {...form.getInputProps('credit_quota')}
          />
          <NumberInput
            label={t('member_credit_quota')}
            description={t('member_credit_quota_hint')}
            min={0}
            max={1e12}
            thousandSeparator=","
            disabled={locked}
            {...form.getInputProps('member_credit_quota')}
          />
          {/* Locked, there is nothing to save: the dialog's own close button is the way out. */}
          {!locked && (
            <FormDialogButtons gap="md" mt="sm" cancelLabel={t('cancel')} onCancel={onClose} submitLabel={t('save')} saving={save.isPending} />
          )}
        </Stack>
      </form>
    </Modal>
  );
}
