import { Badge, Checkbox, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminCustomFieldsApi, isApiError, type AdminCustomField } from '../../../../../shared/api';
import { CUSTOM_FIELD_TYPES, type CustomFieldType } from '../../../../../shared/domain/tenantSettings';
import { errorMessageKey, errorMessageValues } from '../../../api/errorMessages';
import { signupFormKey } from '../../../api/signup';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { FormDialogButtons } from '../../../components/forms/FormDialogButtons';
import { bodySchemaOf, focusFirstError, zodResolver } from '../../../components/forms/zodResolver';
import { showToast } from '../../../components/toast';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { BilingualNameInputs, takenName } from './BilingualNameInputs';
import { SettingsListCard } from '../SettingsCards';
import { type BilingualName, localizedName } from '../../../../../shared/domain/language';
import { OtherName } from '../../../components/OtherName';
import { messageText } from '../../../i18n/keys';

const FLAGS = ['is_signup_field', 'is_required', 'is_editable', 'is_unique', 'is_searchable'] as const;
type Flag = (typeof FLAGS)[number];

interface FieldValues extends Record<Flag, boolean>, BilingualName {
  field_type: CustomFieldType;
}

const NEW_FIELD: FieldValues = {
  ko_name: '',
  en_name: '',
  field_type: 'text',
  is_signup_field: true,
  is_required: false,
  is_editable: true,
  is_unique: false,
  is_searchable: false,
};
const createSchema = bodySchemaOf(adminCustomFieldsApi.createCustomField);

/** The form's values of a field: its two names and settings (not the spec's `field_name`, which the server derives). */
const valuesOf = (field: AdminCustomField): FieldValues => ({
  ko_name: field.ko_name,
  en_name: field.en_name,
  field_type: field.field_type,
  is_signup_field: field.is_signup_field,
  is_required: field.is_required,
  is_editable: field.is_editable,
  is_unique: field.is_unique,
  is_searchable: field.is_searchable,
});

/** The name field a refusal is about, when it is one the admin fixes there. */
function nameError(error: unknown): 'ko_name' | 'en_name' | null {
  if (isApiError(error) && error.code === 'field_name_taken') return takenName(error);
  if (isApiError(error) && error.code === 'field_name_required') return 'ko_name';
  return null;
}

/** Create (no `field`) or edit a field: its Korean and English names (one is enough), type and the flags of spec §3. */
function FieldDialog({ field, onClose }: { field: AdminCustomField | null; onClose: () => void }) {
  const { t } = useTranslation('tenantSettings');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const form = useForm<FieldValues>({ mode: 'controlled', initialValues: field ? valuesOf(field) : NEW_FIELD, validate: zodResolver(createSchema) });
  const handlers = {
    invalidates: () => [endpointKey(adminCustomFieldsApi.listAdminCustomFields), signupFormKey],
    // A name in use (or none left) is the admin's input to fix: said under the name the server names, which keeps the focus.
    errorToast: { when: (error: unknown) => !nameError(error) },
    onSuccess: () => {
      showToast('success', t(field ? 'fields.updated' : 'fields.created'));
      onClose();
    },
    onError: (error: unknown) => {
      const name = nameError(error);
      if (name)
        form.setFieldError(
          name,
          messageText(
            errorMessageKey(error, field ? adminCustomFieldsApi.updateCustomField : adminCustomFieldsApi.createCustomField),
            errorMessageValues(error, language),
          ),
        );
      // Deleted meanwhile (another admin): the list shows what is left.
      if (isApiError(error) && error.status === 404) {
        void queryClient.invalidateQueries({ queryKey: endpointKey(adminCustomFieldsApi.listAdminCustomFields) });
        onClose();
      }
    },
  };
  const create = useEndpointMutation(adminCustomFieldsApi.createCustomField, handlers);
  const update = useEndpointMutation(adminCustomFieldsApi.updateCustomField, handlers);
  const save = (values: FieldValues) => {
    const body = { ...values, ko_name: values.ko_name.trim(), en_name: values.en_name.trim() };
    if (field) update.mutate({ params: { id: field.id }, body });
    else create.mutate({ body });
  };
  return (
    <form noValidate onSubmit={form.onSubmit(save, (errors) => focusFirstError(form, errors))}>
      <Stack gap="md">
        <BilingualNameInputs form={form} id="field" />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="field-type-label">
            {t('fields.type')}
          </Text>
          <SegmentedControl
            aria-labelledby="field-type-label"
            data={CUSTOM_FIELD_TYPES.map((type) => ({ value: type, label: t(`fields.type_${type}`) }))}
            {...form.getInputProps('field_type')}
          />
        </Stack>
        <Stack gap="xs">
          {FLAGS.map((flag) => (
            <Checkbox key={flag} label={t(`fields.${flag}`)} description={t(`fields.${flag}_hint`)} {...form.getInputProps(flag, { type: 'checkbox' })} />
          ))}
        </Stack>
        <FormDialogButtons cancelLabel={t('cancel')} onCancel={onClose} submitLabel={t('save')} saving={create.isPending || update.isPending} />
      </Stack>
    </form>
  );
}

function FlagBadges({ field }: { field: AdminCustomField }) {
  const { t } = useTranslation('tenantSettings');
  const shown = FLAGS.filter((flag) => field[flag]);
  return (
    <Group gap={4}>
      {shown.map((flag) => (
        <Badge key={flag} size="sm" variant="light" color={flag === 'is_required' ? 'red' : 'indigo'}>
          {t(`fields.badge_${flag}`)}
        </Badge>
      ))}
    </Group>
  );
}

/** The tenant's custom fields (spec §3 flags): list, add, edit, delete (its values go with it). */
export function CustomFieldsCard() {
  const { t } = useTranslation('tenantSettings');
  const language = useResolvedLanguage();
  const nameOf = (field: BilingualName) => localizedName(field, language);
  const queryClient = useQueryClient();
  const fields = useEndpointQuery(adminCustomFieldsApi.listAdminCustomFields, {}, { errorToast: true });
  const remove = useEndpointMutation(adminCustomFieldsApi.deleteCustomField, {
    onSuccess: () => showToast('success', t('fields.deleted')),
    // Also after a failure: a 404 means another admin deleted it. Not awaited: the confirmation closes as soon as the delete is answered.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: signupFormKey });
      void queryClient.invalidateQueries({ queryKey: endpointKey(adminCustomFieldsApi.listAdminCustomFields) });
    },
  });

  return (
    <SettingsListCard
      id="custom-fields-title"
      title={t('fields.title')}
      description={t('fields.description')}
      addLabel={t('fields.add')}
      addTestId="add-custom-field"
      emptyText={t('fields.empty')}
      query={{ isPending: fields.isPending, data: fields.data?.items }}
      table={{
        minWidth: 560,
        testId: 'custom-fields',
        rowTestId: 'custom-field-row',
        actionsLabel: t('actions'),
        head: (
          <>
            <Table.Th>{t('fields.name')}</Table.Th>
            <Table.Th>{t('fields.type')}</Table.Th>
            <Table.Th>{t('fields.flags')}</Table.Th>
            <Table.Th>{t('fields.values')}</Table.Th>
          </>
        ),
      }}
      cells={(field) => (
        <>
          <Table.Td style={{ overflowWrap: 'anywhere' }}>
            <Text size="sm">{nameOf(field)}</Text>
            <OtherName named={field} language={language} />
          </Table.Td>
          <Table.Td>{t(`fields.type_${field.field_type}`)}</Table.Td>
          <Table.Td>
            <FlagBadges field={field} />
          </Table.Td>
          <Table.Td>{field.value_count}</Table.Td>
        </>
      )}
      actionLabels={(field) => ({ edit: t('fields.edit', { name: nameOf(field) }), delete: t('fields.delete', { name: nameOf(field) }) })}
      editor={{
        title: (isNew) => t(isNew ? 'fields.create_title' : 'fields.edit_title'),
        form: (field, close) => <FieldDialog field={field} onClose={close} />,
      }}
      deletion={{
        title: (field) => t('fields.delete_title', { name: field ? nameOf(field) : '' }),
        body: (field) => t('fields.delete_body', { name: field ? nameOf(field) : '', count: field?.value_count ?? 0 }),
        cancelLabel: t('cancel'),
        confirmLabel: t('delete'),
        pending: remove.isPending,
        confirm: (field, close) => remove.mutate({ params: { id: field.id } }, { onSettled: close }),
      }}
    />
  );
}
