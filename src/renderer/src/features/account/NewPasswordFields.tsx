import { PasswordInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { validatePassword } from '../../../../shared/domain/validation';

export interface NewPasswordValues {
  new_password: string;
  confirmation: string;
}

/** Spec §5: 8+ characters with letters, numbers and special characters, typed twice. Results are i18n keys. */
export const newPasswordRules = {
  new_password: (value: string) => (validatePassword(value) ? `common:${validatePassword(value)}` : null),
  confirmation: (value: string, values: NewPasswordValues) => (value === values.new_password ? null : 'account:passwords_do_not_match'),
};

/** The new password and its confirmation, shared by the reset page and My page. */
export function NewPasswordFields<V extends NewPasswordValues>({ form }: { form: UseFormReturnType<V> }) {
  const { t } = useTranslation('account');
  const error = (field: keyof NewPasswordValues) => {
    const key = form.errors[field];
    return key ? t(String(key)) : undefined;
  };
  return (
    <>
      <PasswordInput
        label={t('new_password')}
        description={t('password_rule')}
        autoComplete="new-password"
        {...form.getInputProps('new_password')}
        error={error('new_password')}
      />
      <PasswordInput label={t('confirm_password')} autoComplete="new-password" {...form.getInputProps('confirmation')} error={error('confirmation')} />
    </>
  );
}
