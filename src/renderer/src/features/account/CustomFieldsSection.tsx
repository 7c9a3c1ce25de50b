import { useState } from 'react';
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError, membersApi, type CustomFieldValue } from '../../../../shared/api';
import { localizedName } from '../../../../shared/domain/language';
import { validateCustomFieldValue } from '../../../../shared/domain/signup';
import { errorCustomFieldId, errorMessageKey, errorMessageValues } from '../../api/errorMessages';
import { endpointKey, useEndpointMutation } from '../../api/endpointHooks';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { useUserSession } from '../../stores/userSession';
import { messageText } from '../../i18n/keys';

type Values = Record<string, string>;

const valuesOf = (fields: readonly CustomFieldValue[]): Values =>
  Object.fromEntries(fields.filter((f) => f.is_editable).map((f) => [String(f.custom_field_id), f.value ?? '']));

/**
 * The member's custom fields (spec §2 My page): the editable ones in a form checked by the sign-up
 * rules (spec §5, shared/domain/signup), the others shown as they are.
 */
export function CustomFieldsSection({ fields }: { fields: readonly CustomFieldValue[] }) {
  const { t } = useTranslation('account');
  const language = useResolvedLanguage();
  const memberId = useUserSession((state) => state.member?.id);
  const setMember = useUserSession((state) => state.setMember);
  const queryClient = useQueryClient();
  const editable = fields.filter((field) => field.is_editable);
  const readOnly = fields.filter((field) => !field.is_editable);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: valuesOf(fields),
    validate: (values) =>
      Object.fromEntries(
        editable.flatMap((field) => {
          const key = validateCustomFieldValue(field, values[String(field.custom_field_id)]);
          return key ? [[String(field.custom_field_id), messageText(key, { field_name: localizedName(field, language) })]] : [];
        }),
      ),
  });
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  // The outcome is said above the form, or under the field it names; never in a toast.
  const save = useEndpointMutation(membersApi.patchMember, {
    errorToast: false,
    onMutate: () => setOutcome(null),
    onSuccess: (saved, { params }) => {
      setMember(saved);
      queryClient.setQueryData(endpointKey(membersApi.getMember, { params }), saved);
      form.setValues(valuesOf(saved.custom_fields));
      form.resetDirty(valuesOf(saved.custom_fields));
      setOutcome({ ok: true, message: t('custom_fields.saved') });
    },
    onError: (error) => {
      // A refusal naming a field (required, number, already used) is said under that field, by the name it shows.
      const named = editable.find((field) => field.custom_field_id === errorCustomFieldId(error));
      const values = errorMessageValues(error, language);
      const message = messageText(errorMessageKey(error, membersApi.patchMember), named ? { ...values, field_name: localizedName(named, language) } : values);
      if (named && isApiError(error) && error.code !== 'field_not_editable') form.setFieldError(String(named.custom_field_id), message);
      else setOutcome({ ok: false, message });
    },
  });

  function submit(values: Values) {
    if (memberId === undefined) return;
    // Only the editable fields are sent (spec §5 rules; ARCHITECTURE "Tenant settings").
    const customFields = editable.map((field) => ({ custom_field_id: field.custom_field_id, value: values[String(field.custom_field_id)]?.trim() ?? '' }));
    save.mutate({ params: { id: memberId }, body: { custom_fields: customFields } });
  }

  return (
    <Stack gap="md" maw={420}>
      {readOnly.map((field) => (
        <div key={field.custom_field_id} data-testid={`custom-field-readonly-${field.custom_field_id}`}>
          <Text size="sm" fw={500}>
            {localizedName(field, language)}
          </Text>
          <Text size="sm" c="dimmed">
            {field.value ?? t('custom_fields.empty')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('custom_fields.read_only')}
          </Text>
        </div>
      ))}
      {editable.length > 0 && (
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack gap="sm">
            {outcome && (
              <Alert color={outcome.ok ? 'green' : 'red'} variant="light" role={outcome.ok ? 'status' : 'alert'}>
                {outcome.message}
              </Alert>
            )}
            {editable.map((field) => (
              <TextInput
                key={field.custom_field_id}
                label={localizedName(field, language)}
                withAsterisk={field.is_required}
                inputMode={field.field_type === 'number' ? 'decimal' : undefined}
                description={field.is_unique ? t('custom_fields.unique_hint') : undefined}
                {...form.getInputProps(String(field.custom_field_id))}
                data-testid={`custom-field-${field.custom_field_id}`}
              />
            ))}
            <Button type="submit" loading={save.isPending} disabled={!form.isDirty()} style={{ alignSelf: 'flex-start' }} data-testid="custom-fields-save">
              {t('custom_fields.save')}
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
