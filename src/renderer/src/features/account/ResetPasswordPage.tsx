import { useEffect } from 'react';
import { Alert, Anchor, Button } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { passwordsApi } from '../../../../shared/api';
import { useEndpointMutation } from '../../api/endpointHooks';
import { errorMessageKey, errorMessageValues } from '../../api/errorMessages';
import { usePasswordMinLength } from '../../api/tenant';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { getPlatform } from '../../platform';
import { AuthCard } from './AuthCard';
import { NewPasswordFields, type NewPasswordValues, newPasswordRules } from './NewPasswordFields';
import { messageText } from '../../i18n/keys';

/**
 * Route /auth/reset/:token, opened from the mail. `?tenant=` (links of a non-default workspace)
 * becomes the workspace of this browser first, so the token is checked in its tenant. Success
 * signs nobody in: the member goes to the sign-in page with the new password.
 */
export default function ResetPasswordPage() {
  const { t } = useTranslation('account');
  const { token = '' } = useParams();
  const [search] = useSearchParams();
  const tenant = search.get('tenant');
  const language = useResolvedLanguage();
  const minLength = usePasswordMinLength();
  const form = useForm<NewPasswordValues>({ mode: 'controlled', initialValues: { new_password: '', confirmation: '' }, validate: newPasswordRules(minLength) });
  // A refusal is said above the form (with a link to ask again), not in a toast.
  const confirm = useEndpointMutation(passwordsApi.confirmPasswordReset, { errorToast: false });
  const failure = confirm.isError
    ? { key: errorMessageKey(confirm.error, passwordsApi.confirmPasswordReset), values: errorMessageValues(confirm.error, language) }
    : null;
  useDocumentTitle(t('reset.title'));

  useEffect(() => {
    if (tenant) void getPlatform().settings.set({ subdomain: tenant });
  }, [tenant]);

  function submit(values: NewPasswordValues) {
    confirm.mutate({ body: { token, new_password: values.new_password } });
  }

  if (confirm.isSuccess) {
    return (
      <AuthCard title={t('reset.done_title')}>
        <Alert color="green" variant="light" role="status" data-testid="reset-done">
          {t('reset.done_body')}
        </Alert>
        <Button component={Link} to="/auth" size="md" fullWidth>
          {t('go_to_sign_in')}
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('reset.title')} intro={t('reset.intro')} onSubmit={form.onSubmit(submit)}>
      {failure && (
        <Alert color="red" variant="light" role="alert" data-testid="reset-error">
          {messageText(failure.key, failure.values)}{' '}
          {failure.key.startsWith('account:reset_errors.link') && (
            <Anchor component={Link} to="/auth/forgot">
              {t('reset.ask_again')}
            </Anchor>
          )}
        </Alert>
      )}
      <NewPasswordFields form={form} minLength={minLength} />
      <Button type="submit" size="md" loading={confirm.isPending} fullWidth>
        {t('reset.submit')}
      </Button>
      <Anchor component={Link} to="/auth" size="sm" ta="center">
        {t('back_to_sign_in')}
      </Anchor>
    </AuthCard>
  );
}
