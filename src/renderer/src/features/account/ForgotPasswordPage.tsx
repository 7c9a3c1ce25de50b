import { useState } from 'react';
import { Alert, Anchor, Button, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { passwordsApi } from '../../../../shared/api';
import { validateEmail } from '../../../../shared/domain/validation';
import { type ErrorMessageValues, errorMessageKey, errorMessageValues } from '../../api/errorMessages';
import { requestPasswordReset } from '../../api/passwords';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { AuthCard } from './AuthCard';

/** Route /auth/forgot: asks for the email and then says to check the mail (the same for every address). */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('account');
  const { t: tc } = useTranslation();
  const language = useResolvedLanguage();
  const form = useForm({ mode: 'controlled', initialValues: { email: '' }, validate: { email: validateEmail } });
  const [failure, setFailure] = useState<{ key: string; values: ErrorMessageValues } | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  useDocumentTitle(t('forgot.title'));

  async function submit({ email }: { email: string }) {
    setFailure(null);
    setSubmitting(true);
    try {
      await requestPasswordReset(email.trim(), language);
      setSentTo(email.trim());
    } catch (error) {
      setFailure({ key: errorMessageKey(error, passwordsApi.resetPassword), values: errorMessageValues(error, language) });
    } finally {
      setSubmitting(false);
    }
  }

  const backToSignIn = (
    <Anchor component={Link} to="/auth" size="sm" ta="center">
      {t('back_to_sign_in')}
    </Anchor>
  );

  if (sentTo) {
    return (
      <AuthCard title={t('forgot.sent_title')}>
        <Alert color="indigo" variant="light" role="status" data-testid="reset-mail-sent">
          {t('forgot.sent_body', { email: sentTo })}
        </Alert>
        {backToSignIn}
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('forgot.title')} intro={t('forgot.intro')} onSubmit={form.onSubmit(submit)}>
      {failure && (
        <Alert color="red" variant="light" role="alert" data-testid="forgot-error">
          {t(failure.key, failure.values)}
        </Alert>
      )}
      <TextInput
        label={t('email')}
        type="email"
        autoComplete="username"
        {...form.getInputProps('email')}
        error={form.errors.email && tc(String(form.errors.email))}
        size="md"
        data-autofocus
      />
      <Button type="submit" size="md" loading={submitting} fullWidth>
        {t('forgot.submit')}
      </Button>
      {backToSignIn}
    </AuthCard>
  );
}
