import { PasswordInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { validatePassword } from '../../../../shared/domain/validation';
import { formErrorText } from '../../components/forms/zodResolver';

export interface NewPasswordValues {
  new_password: string;
  confirmation: string;
}

/**
 * Spec §5: letters, numbers and special characters, at least the tenant's minimum length (8 unless
 * its admin raised it), typed twice. Results are i18n keys. The server also refuses common passwords.
 */
export const newPasswordRules = (minLength: number) => ({
  new_password: (value: string) => {
    const problem = validatePassword(value, minLength);
    return problem ? `common:${problem}` : null;
  },
  confirmation: (value: string, values: NewPasswordValues) => (value === values.new_password ? null : 'account:passwords_do_not_match'),
});

/** The new password and its confirmation, shared by the reset page, My page and the invitation page. */
export function NewPasswordFields<V extends NewPasswordValues>({ form, minLength }: { form: UseFormReturnType<V>; minLength: number }) {
  const { t } = useTranslation('account');
  const error = (field: keyof NewPasswordValues) => formErrorText(form.errors[field], { count: minLength });
  return (
    <>
      <PasswordInput
        label={t('new_password')}
        description={t('password_rule', { count: minLength })}
        autoComplete="new-password"
        {...form.getInputProps('new_password')}
        error={error('new_password')}
      />
      <PasswordInput label={t('confirm_password')} autoComplete="new-password" {...form.getInputProps('confirmation')} error={error('confirmation')} />
    </>
  );
}
