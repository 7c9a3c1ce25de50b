import { Alert, Anchor, Button, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { passwordsApi } from '../../../../shared/api';
import { validateEmail } from '../../../../shared/domain/validation';
import { useEndpointMutation } from '../../api/endpointHooks';
import { errorMessageKey, errorMessageValues } from '../../api/errorMessages';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { AuthCard } from './AuthCard';
import { formErrorText } from '../../components/forms/zodResolver';
import { messageText } from '../../i18n/keys';

/** Route /auth/forgot: asks for the email and then says to check the mail (the same for every address). */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('account');
  const language = useResolvedLanguage();
  const form = useForm({ mode: 'controlled', initialValues: { email: '' }, validate: { email: validateEmail } });
  // A refusal is said above the form, not in a toast.
  const request = useEndpointMutation(passwordsApi.resetPassword, { errorToast: false });
  const failure = request.isError
    ? { key: errorMessageKey(request.error, passwordsApi.resetPassword), values: errorMessageValues(request.error, language) }
    : null;
  const sentTo = request.isSuccess ? request.variables.body.email : null;
  useDocumentTitle(t('forgot.title'));

  function submit({ email }: { email: string }) {
    request.mutate({ body: { email: email.trim(), language } });
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
          {messageText(failure.key, failure.values)}
        </Alert>
      )}
      <TextInput
        label={t('email')}
        type="email"
        autoComplete="username"
        {...form.getInputProps('email')}
        error={formErrorText(form.errors.email)}
        size="md"
        data-autofocus
      />
      <Button type="submit" size="md" loading={request.isPending} fullWidth>
        {t('forgot.submit')}
      </Button>
      {backToSignIn}
    </AuthCard>
  );
}
