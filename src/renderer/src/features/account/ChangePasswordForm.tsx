import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { passwordsApi } from '../../../../shared/api';
import { useEndpointMutation } from '../../api/endpointHooks';
import { errorMessageKey, errorMessageValues } from '../../api/errorMessages';
import { usePasswordMinLength } from '../../api/tenant';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { NewPasswordFields, type NewPasswordValues, newPasswordRules } from './NewPasswordFields';
import { formErrorText } from '../../components/forms/zodResolver';
import { messageText } from '../../i18n/keys';

type Values = NewPasswordValues & { password: string };

/** My page: the current password and the new one; the member's other sessions end, this one stays. */
export function ChangePasswordForm() {
  const { t } = useTranslation('account');
  const language = useResolvedLanguage();
  const minLength = usePasswordMinLength();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { password: '', new_password: '', confirmation: '' },
    validate: { ...newPasswordRules(minLength), password: (value: string) => (value ? null : 'common:validation.required') },
  });
  // The outcome is said above the form, not in a toast.
  const change = useEndpointMutation(passwordsApi.changePassword, { errorToast: false, onSuccess: () => form.reset() });
  const outcome = change.isSuccess
    ? { ok: true as const }
    : change.isError
      ? { ok: false as const, key: errorMessageKey(change.error, passwordsApi.changePassword), values: errorMessageValues(change.error, language) }
      : null;

  function submit(values: Values) {
    change.mutate({ body: { password: values.password, new_password: values.new_password } });
  }

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label={t('change_password.title')} data-testid="change-password-form">
      <Stack gap="sm" maw={420}>
        {outcome && (
          <Alert color={outcome.ok ? 'green' : 'red'} variant="light" role={outcome.ok ? 'status' : 'alert'} data-testid="change-password-outcome">
            {outcome.ok ? t('change_password.done') : messageText(outcome.key, outcome.values)}
          </Alert>
        )}
        <PasswordInput
          label={t('current_password')}
          autoComplete="current-password"
          {...form.getInputProps('password')}
          error={formErrorText(form.errors.password)}
        />
        <NewPasswordFields form={form} minLength={minLength} />
        <Button type="submit" loading={change.isPending} style={{ alignSelf: 'flex-start' }}>
          {t('change_password.submit')}
        </Button>
      </Stack>
    </form>
  );
}
