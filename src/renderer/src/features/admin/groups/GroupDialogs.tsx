import { Alert, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { type ApiError, adminMemberGroupsApi, isApiError, type AdminMemberGroup } from '../../../../../shared/api';
import { useEndpointMutation } from '../../../api/endpointHooks';
import { errorMessageKey } from '../../../api/errorMessages';
import { FormDialogButtons } from '../../../components/forms/FormDialogButtons';
import { bodySchemaOf, focusFirstError, formErrorText, zodResolver } from '../../../components/forms/zodResolver';
import { IconLock } from '../../../components/icons';
import { showToast } from '../../../components/toast';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { localizedName } from '../../../../../shared/domain/language';
import { messageText } from '../../../i18n/keys';

const nameSchema = bodySchemaOf(adminMemberGroupsApi.createMemberGroup);
const isNameTaken = (error: unknown): error is ApiError => isApiError(error) && error.status === 409;

/**
 * Create a group, or rename one (`group`): a Korean or an English name or both, each unique in the
 * tenant (the other language shows the one given). A name in use is
 * said under its field (the server names which); other failures, such as 403 (sign out and
 * retry, spec §6), in a toast.
 */
export function GroupNameDialog({
  group,
  opened,
  onClose,
  onSaved,
}: {
  group: AdminMemberGroup | null;
  opened: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('adminGroups');
  const form = useForm({
    mode: 'controlled',
    initialValues: { ko_name: group?.ko_name ?? '', en_name: group?.en_name ?? '' },
    validate: zodResolver(nameSchema),
  });
  const handlers = {
    // A name in use is said under the field the server names.
    errorToast: { when: (error: unknown) => !isNameTaken(error) },
    onSuccess: () => {
      showToast('success', t(group ? 'renamed' : 'created'));
      onSaved();
      onClose();
    },
    onError: (error: unknown) => {
      if (!isNameTaken(error)) return;
      const field = (error.body?.details as { field?: string } | undefined)?.field;
      form.setFieldError(
        field === 'ko_name' ? 'ko_name' : 'en_name',
        messageText(errorMessageKey(error, group ? adminMemberGroupsApi.patchMemberGroup : adminMemberGroupsApi.createMemberGroup)),
      );
    },
  };
  const create = useEndpointMutation(adminMemberGroupsApi.createMemberGroup, handlers);
  const rename = useEndpointMutation(adminMemberGroupsApi.patchMemberGroup, handlers);
  const save = (values: { ko_name: string; en_name: string }) => {
    const body = { ko_name: values.ko_name.trim(), en_name: values.en_name.trim() };
    if (group) rename.mutate({ params: { id: group.id }, body });
    else create.mutate({ body });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t(group ? 'rename_title' : 'create_title')}>
      <form noValidate onSubmit={form.onSubmit(save, (errors) => focusFirstError(form, errors))}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed" id="group-names-hint">
            {t('names_hint')}
          </Text>
          <TextInput
            label={t('ko_name')}
            aria-describedby="group-names-hint"
            data-autofocus
            {...form.getInputProps('ko_name')}
            error={formErrorText(form.errors.ko_name)}
          />
          <TextInput label={t('en_name')} aria-describedby="group-names-hint" {...form.getInputProps('en_name')} error={formErrorText(form.errors.en_name)} />
          <FormDialogButtons
            gap="md"
            mt="sm"
            cancelLabel={t('cancel')}
            onCancel={onClose}
            submitLabel={t(group ? 'save' : 'create')}
            saving={create.isPending || rename.isPending}
          />
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
  const save = useEndpointMutation(adminMemberGroupsApi.patchMemberGroup, {
    onSuccess: () => {
      showToast('success', t('quota_saved'));
      onSaved();
      onClose();
    },
  });
  return (
    <Modal
      opened={group !== null}
      onClose={onClose}
      title={t('quota_title', { name: group ? localizedName(group, language) : '' })}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          if (group)
            save.mutate({
              params: { id: group.id },
              body: { credit_quota: toQuota(values.credit_quota), member_credit_quota: toQuota(values.member_credit_quota) },
            });
        })}
      >
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
          {!locked && <FormDialogButtons gap="md" mt="sm" cancelLabel={t('cancel')} onCancel={onClose} submitLabel={t('save')} saving={save.isPending} />}
        </Stack>
      </form>
    </Modal>
  );
}
