import { lazy, Suspense, useState } from 'react';
import { Alert, Anchor, Box, Button, Center, Group, Image, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { validateEmail } from '../../../../shared/domain/validation';
import { getPlatform } from '../../platform';
import { useTenant } from '../../api/tenant';
import { useSsoPlatforms } from '../../api/ssoPlatforms';
import { loadScreenModule } from '../../app/screenModule';
import { useUserSession } from '../../stores/userSession';
import { LanguageMenu } from '../../components/LanguageMenu';
import { MAIN_CONTENT_ID } from '../../components/mainContent';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import * as authApi from '../../../../shared/api/auth';
import { useEndpointMutation } from '../../api/endpointHooks';
import { errorMessageKey, errorMessageValues } from '../../api/errorMessages';
import { focusFirstError, formErrorText, zodResolver } from '../../components/forms/zodResolver';
import { messageText } from '../../i18n/keys';

// The SSO part (and its strings) loads only for tenants that have SSO platforms.
const SsoOptions = lazy(() => loadScreenModule(() => import('../sso/SsoOptions')));

/**
 * The server's sign-in body with the email rule on top. The password is only required: the rules for
 * a new password never apply to signing in (a wrong password is "incorrect", whatever it looks like,
 * and a member keeps an older password until they change it).
 */
const signInFormSchema = authApi.signInBodySchema.superRefine((values, context) => {
  const email = validateEmail(values.email);
  if (email) context.addIssue({ code: 'custom', path: ['email'], message: email });
  if (!values.password) context.addIssue({ code: 'custom', path: ['password'], message: 'validation.required' });
});

export default function SignInPage() {
  const { t, i18n } = useTranslation('auth');
  const { t: td } = useTranslation('desktop');
  const navigate = useNavigate();
  const location = useLocation();
  const member = useUserSession((state) => state.member);
  const setMember = useUserSession((state) => state.setMember);
  const tenant = useTenant();
  const sso = useSsoPlatforms();
  const ssoPlatforms = sso.data?.items ?? [];
  // SSO-only tenants show the email form to administrators only when asked (their break-glass way in).
  const [emailForm, setEmailForm] = useState(false);
  const showEmailForm = !sso.data?.sso_only || ssoPlatforms.length === 0 || emailForm;
  const form = useForm({ mode: 'controlled', initialValues: { email: '', password: '' }, validate: zodResolver(signInFormSchema) });
  const destination = (location.state as { from?: string } | null)?.from ?? '/dashboard/chat';
  // The platform signs in (web: cookies; desktop: through main, which keeps the tokens); a refusal is said above the form.
  const signIn = useEndpointMutation(authApi.signIn, {
    send: (credentials: { email: string; password: string }) => getPlatform().session.signIn(credentials),
    errorToast: false,
    onSuccess: (signedIn) => {
      setMember(signedIn);
      void navigate(destination, { replace: true });
    },
  });
  const failure = signIn.isError ? { key: errorMessageKey(signIn.error, authApi.signIn), values: errorMessageValues(signIn.error, i18n.language) } : null;
  useDocumentTitle(t('sign_in'));

  if (member) return <Navigate to={destination} replace />;

  function submit({ email, password }: { email: string; password: string }) {
    signIn.mutate({ email: email.trim(), password });
  }

  const tenantName = tenant.data?.tenant_name;
  return (
    <Box
      mih="100vh"
      style={{ background: 'linear-gradient(160deg, var(--mantine-color-indigo-0) 0%, var(--mantine-color-gray-0) 55%, var(--mantine-color-white) 100%)' }}
    >
      <Group component="header" justify="flex-end" p="md">
        {getPlatform().kind === 'desktop' && (
          <Anchor component={Link} to="/setup" size="sm">
            {td('change_server')}
          </Anchor>
        )}
        <LanguageMenu />
      </Group>
      <Center component="main" id={MAIN_CONTENT_ID} tabIndex={-1} px="md" pb={80} pt={24}>
        <Paper w="100%" maw={420} p={{ base: 'lg', phone: 36 }} radius="lg" shadow="md" withBorder>
          <Stack gap="lg">
            <Stack gap={10} align="center">
              {/*
                The tenant's logo, or without one its initial and name (GET /tenants/): a logo carries
                the name (its alt says it), as in the navigation, so the name is not written twice.
              */}
              <Stack data-testid="tenant-brand" mih={44} gap={6} align="center">
                {tenant.data?.logo_url ? (
                  <Image src={tenant.data.logo_url} alt={tenantName} h={44} w="auto" maw={280} fit="contain" />
                ) : (
                  tenantName && (
                    <>
                      <Center w={40} h={40} bg="indigo.6" c="white" fw={700} fz={20} style={{ borderRadius: 10 }} aria-hidden>
                        {tenantName.slice(0, 1)}
                      </Center>
                      <Text fw={700} fz="lg" ta="center" data-testid="tenant-name">
                        {tenantName}
                      </Text>
                    </>
                  )
                )}
              </Stack>
              <Title order={1} size="h2" ta="center">
                {t('welcome_title')}
              </Title>
              <Text c="dimmed" ta="center" size="sm">
                {t('welcome_subtitle')}
              </Text>
            </Stack>

            {showEmailForm && (
              <form
                noValidate
                data-testid="email-sign-in"
                onSubmit={form.onSubmit(submit, (errors) => {
                  signIn.reset();
                  focusFirstError(form, errors);
                })}
              >
                <Stack gap="lg">
                  {failure && (
                    <Alert color="red" variant="light" role="alert" data-testid="sign-in-error">
                      {messageText(failure.key, failure.values)}
                    </Alert>
                  )}

                  <TextInput
                    label={t('email')}
                    placeholder={t('email_placeholder')}
                    type="email"
                    autoComplete="username"
                    {...form.getInputProps('email')}
                    error={formErrorText(form.errors.email)}
                    size="md"
                  />
                  <PasswordInput
                    label={t('password')}
                    placeholder={t('password_placeholder')}
                    autoComplete="current-password"
                    {...form.getInputProps('password')}
                    error={formErrorText(form.errors.password)}
                    size="md"
                  />
                  <Anchor component={Link} to="/auth/forgot" size="sm" mt={-8} style={{ alignSelf: 'flex-end' }} data-testid="forgot-password-link">
                    {t('forgot_password')}
                  </Anchor>
                  <Button type="submit" size="md" loading={signIn.isPending} fullWidth>
                    {t('sign_in')}
                  </Button>
                </Stack>
              </form>
            )}
            {ssoPlatforms.length > 0 && (
              <Suspense fallback={null}>
                <SsoOptions platforms={ssoPlatforms} ssoOnly={!showEmailForm} />
              </Suspense>
            )}
            {!showEmailForm && (
              <Anchor component="button" type="button" size="sm" onClick={() => setEmailForm(true)} style={{ alignSelf: 'center' }}>
                {t('admin_email_sign_in')}
              </Anchor>
            )}
            {/* SSO-only tenants take no normal sign-up: members arrive through SSO. */}
            {!sso.data?.sso_only && (
              <Text size="sm" ta="center">
                {t('no_account')}{' '}
                <Anchor component={Link} to="/auth/sign-up">
                  {t('sign_up_link')}
                </Anchor>
              </Text>
            )}
            <Text size="xs" c="dimmed" ta="center">
              {t('help_text')}
            </Text>
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
