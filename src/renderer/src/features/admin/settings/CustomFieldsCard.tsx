import { Badge, Checkbox, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminCustomFieldsApi, isApiError, type AdminCustomField } from '../../../../../shared/api';
import { CUSTOM_FIELD_TYPES, type CustomFieldType } from '../../../../../shared/domain/tenantSettings';
import { errorMessageKey, errorMessageValues } from '../../../api/errorMessages';
import { queryKeys } from '../../../api/queryKeys';
import { createCustomField, deleteCustomField, updateCustomField, useAdminCustomFields } from '../../../api/tenantSettings';
import { FormDialogButtons } from '../../../components/forms/FormDialogButtons';
import { bodySchemaOf, focusFirstError, zodResolver } from '../../../components/forms/zodResolver';
import { showToast } from '../../../components/toast';
import { useErrorToast } from '../../../components/useErrorToast';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { BilingualNameInputs, takenName } from './BilingualNameInputs';
import { SettingsListCard } from '../SettingsCards';
import { type BilingualName, localizedName } from '../../../../../shared/domain/language';
import { OtherName } from '../../../components/OtherName';

const FLAGS = ['is_signup_field', 'is_required', 'is_editable', 'is_unique', 'is_searchable'] as const;
type Flag = (typeof FLAGS)[number];

interface FieldValues extends Record<Flag, boolean>, BilingualName {
  field_type: CustomFieldType;
}

const NEW_FIELD: FieldValues = { ko_name: '', en_name: '', field_type: 'text', is_signup_field: true, is_required: false, is_editable: true, is_unique: false, is_searchable: false };
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

/** Create (no `field`) or edit a field: its Korean and English names (one is enough), type and the flags of spec §3. */
function FieldDialog({ field, onClose }: { field: AdminCustomField | null; onClose: () => void }) {
  const { t } = useTranslation('tenantSettings');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const form = useForm<FieldValues>({ mode: 'controlled', initialValues: field ? valuesOf(field) : NEW_FIELD, validate: zodResolver(createSchema) });
  const endpoint = field ? adminCustomFieldsApi.updateCustomField : adminCustomFieldsApi.createCustomField;
  const save = useMutation({
    mutationFn: (values: FieldValues) => {
      const body = { ...values, ko_name: values.ko_name.trim(), en_name: values.en_name.trim() };
      return field ? updateCustomField(field.id, body) : createCustomField(body);
    },
    onSuccess: () => {
      showToast('success', t(field ? 'fields.updated' : 'fields.created'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminCustomFields });
      void queryClient.invalidateQueries({ queryKey: queryKeys.signupForm });
      onClose();
    },
    onError: (error) => {
      const message = t(errorMessageKey(error, endpoint), errorMessageValues(error, language));
      // A name in use (or none left) is the admin's input to fix: said under the name the server names, which keeps the focus.
      if (isApiError(error) && error.code === 'field_name_taken') form.setFieldError(takenName(error), message);
      else if (isApiError(error) && error.code === 'field_name_required') form.setFieldError('ko_name', message);
      else showToast('error', message);
      // Deleted meanwhile (another admin): the list shows what is left.
      if (isApiError(error) && error.status === 404) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.adminCustomFields });
        onClose();
      }
    },
  });
  return (
    <form noValidate onSubmit={form.onSubmit((values) => save.mutate(values), (errors) => focusFirstError(form, errors))}>
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
        <FormDialogButtons cancelLabel={t('cancel')} onCancel={onClose} submitLabel={t('save')} saving={save.isPending} />
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
  const fields = useAdminCustomFields();
  useErrorToast(fields.error, adminCustomFieldsApi.listAdminCustomFields);
  const remove = useMutation({
    mutationFn: (id: number) => deleteCustomField(id),
    onSuccess: () => showToast('success', t('fields.deleted')),
    onError: (error) => showToast('error', t(errorMessageKey(error, adminCustomFieldsApi.deleteCustomField))),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.signupForm });
      // Not awaited: the confirmation closes as soon as the delete is answered.
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminCustomFields });
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
      query={fields}
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
      editor={{ title: (isNew) => t(isNew ? 'fields.create_title' : 'fields.edit_title'), form: (field, close) => <FieldDialog field={field} onClose={close} /> }}
      deletion={{
        title: (field) => t('fields.delete_title', { name: field ? nameOf(field) : '' }),
        body: (field) => t('fields.delete_body', { name: field ? nameOf(field) : '', count: field?.value_count ?? 0 }),
        cancelLabel: t('cancel'),
        confirmLabel: t('delete'),
        pending: remove.isPending,
        confirm: (field, close) => remove.mutate(field.id, { onSettled: close }),
      }}
    />
  );
}
