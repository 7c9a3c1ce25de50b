import { type ReactNode, useState } from 'react';
import { Alert, Anchor, Box, Button, Center, Group, Loader, Paper, PasswordInput, Radio, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { FORM_INDEX, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { isApiError, signupApi, ssoApi, type CustomField, type Member, type Policy, type SignupSettings, type MemberGroup } from '../../../../shared/api';
import type { SignupOutcome } from '../../../../shared/domain/signup';
import { useEndpointMutation } from '../../api/endpointHooks';
import { errorMessageKey } from '../../api/errorMessages';
import { useSignupForm } from '../../api/signup';
import { usePasswordMinLength } from '../../api/tenant';
import { LanguageMenu } from '../../components/LanguageMenu';
import { MAIN_CONTENT_ID } from '../../components/mainContent';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useSecondsUntil } from '../../components/useSecondsUntil';
import { focusFirstError, formErrorText, zodResolver } from '../../components/forms/zodResolver';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { getPlatform } from '../../platform';
import { useUserSession } from '../../stores/userSession';
import { PolicyAgreements } from './PolicyAgreements';
import { signUpFormSchema, type SignUpFormValues } from './signUpFormSchema';
import { localizedName } from '../../../../shared/domain/language';
import type { SsoIdentity, SsoSignUpState } from './ssoSignUpState';
import { messageText } from '../../i18n/keys';

/** A translated failure of a sign-up call, with the field or wait time the server named. */
function failureOf(error: unknown, endpoint: typeof signupApi.sendCode | typeof signupApi.signUp | typeof ssoApi.ssoSignUp) {
  const details = (isApiError(error) ? error.body?.details : undefined) as { field_name?: string; retry_after_seconds?: number } | undefined;
  return { key: errorMessageKey(error, endpoint), values: { field_name: details?.field_name ?? '', seconds: details?.retry_after_seconds ?? 0 } };
}
type Failure = ReturnType<typeof failureOf>;

/** Sign-up (spec §2): details and policies, the emailed code, then the outcome the tenant decides. */
export default function SignUpPage() {
  const { t } = useTranslation('signup');
  const member = useUserSession((state) => state.member);
  const form = useSignupForm();
  // Arriving from SSO: the platform vouched for the email; no password, no code (docs/decisions/0042-sso.md).
  const sso = (useLocation().state as SsoSignUpState | null)?.sso;
  const [outcome, setOutcome] = useState<SignupOutcome | null>(null);
  useDocumentTitle(t('title'));
  if (member && !outcome) return <Navigate to="/dashboard/chat" replace />;

  let content;
  if (form.isPending) content = <Loader aria-label={t('loading')} mx="auto" />;
  else if (form.isError)
    content = (
      <Alert color="red" role="alert">
        {t('errors.load_failed')}
      </Alert>
    );
  else if (outcome) content = <OutcomeView outcome={outcome} />;
  else if (!form.data.settings.signup_open || (form.data.settings.sso_only && !sso))
    content = <Alert role="status">{t(form.data.settings.sso_only && !sso ? 'closed_sso' : 'closed')}</Alert>;
  else if (!form.data.capacity.can_add_member)
    content = (
      <Alert color="orange" role="status">
        {t('errors.member_limit')}
      </Alert>
    );
  else content = <SignUpFlow {...form.data} sso={sso} onDone={setOutcome} />;

  return (
    <Box mih="100vh" bg="gray.0">
      <Group component="header" justify="flex-end" p="md">
        <LanguageMenu />
      </Group>
      <Center component="main" id={MAIN_CONTENT_ID} tabIndex={-1} px="md" pb={80}>
        <Paper w="100%" maw={520} p={{ base: 'lg', sm: 36 }} radius="lg" shadow="md" withBorder>
          <Stack gap="lg">
            <Title order={1} size="h2" ta="center">
              {t('title')}
            </Title>
            {content}
            {outcome === null && (
              <Text size="sm" ta="center">
                {t('have_account')}{' '}
                <Anchor component={Link} to="/auth">
                  {t('sign_in_link')}
                </Anchor>
              </Text>
            )}
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}

interface FlowProps {
  settings: SignupSettings;
  groups: MemberGroup[];
  fields: CustomField[];
  policies: Policy[];
  sso?: SsoIdentity;
  onDone: (outcome: SignupOutcome) => void;
}

interface SentCode {
  expiresAt: number;
  resendAt: number;
}

function SignUpFlow({ settings, groups, fields, policies, sso, onDone }: FlowProps) {
  const { t } = useTranslation('signup');
  const language = useResolvedLanguage();
  const setMember = useUserSession((state) => state.setMember);
  const defaultGroup = groups.find((group) => group.is_default) ?? groups[0];
  const passwordMinLength = usePasswordMinLength();
  const form = useForm<SignUpFormValues>({
    mode: 'controlled',
    initialValues: {
      name: sso?.name ?? '',
      email: sso?.email ?? '',
      password: '',
      password_confirm: '',
      default_member_group_id: defaultGroup ? String(defaultGroup.id) : null,
      custom_fields: Object.fromEntries(fields.map((field) => [String(field.id), ''])),
      agreements: [],
      method: settings.verification_methods[0] ?? 'email',
      phone: '',
    },
    validate: zodResolver(signUpFormSchema(fields, policies, { sso: Boolean(sso), passwordMinLength })),
    // Custom fields say their rule (a number field's above all) as they are typed, with the same
    // schema, not only on submit. Mantine matches a numeric path segment as FORM_INDEX.
    validateInputOnChange: [`custom_fields.${FORM_INDEX}`],
  });
  const [sent, setSent] = useState<SentCode | null>(null);
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<Failure | null>(null);
  // Each step's refusal is said above the form, not in a toast.
  const stepOptions = (endpoint: Parameters<typeof failureOf>[1]) => ({
    errorToast: false,
    onMutate: () => setFailure(null),
    onError: (error: Error) => setFailure(failureOf(error, endpoint)),
  });
  const sendCode = useEndpointMutation(signupApi.sendCode, {
    ...stepOptions(signupApi.sendCode),
    onSuccess: (answer) => {
      setSent({ expiresAt: Date.parse(answer.expires_at), resendAt: Date.parse(answer.resend_available_at) });
      setCode('');
    },
  });
  // An account usable at once is signed in the way sign-in does it (web cookie, desktop keychain), still as part of the step.
  async function finish(outcome: SignupOutcome, signIn: () => Promise<Member>) {
    const signedIn = outcome === 'pending' ? null : await signIn();
    // The outcome first: a signed-in member without one is sent on to the dashboard.
    onDone(outcome);
    if (signedIn) setMember(signedIn);
  }
  const emailSignUp = useEndpointMutation(signupApi.signUp, {
    ...stepOptions(signupApi.signUp),
    onSuccess: (answer, { body }) => finish(answer.outcome, () => getPlatform().session.signIn({ email: body.email, password: body.password })),
  });
  const ssoSignUp = useEndpointMutation(ssoApi.ssoSignUp, {
    ...stepOptions(ssoApi.ssoSignUp),
    onSuccess: (answer, { body }) =>
      finish(answer.outcome, () => getPlatform().session.ssoSignIn({ code: body.sso_access_token, sso_platform_id: body.sso_platform_id })),
  });
  const busy = sendCode.isPending || emailSignUp.isPending || ssoSignUp.isPending;
  const fieldError = (path: string, fieldName?: string) => formErrorText(form.errors[path], { field_name: fieldName, count: passwordMinLength });

  function requestCode() {
    const { email, method, phone } = form.values;
    sendCode.mutate({ body: { email: email.trim(), language, method, ...(method === 'sms' ? { phone: phone.trim() } : {}) } });
  }

  /** What both ways of signing up send: name, language, fields, group and agreements. */
  function admission() {
    const values = form.values;
    return {
      name: values.name.trim(),
      language,
      custom_fields: fields
        .map((field) => ({ custom_field_id: field.id, value: values.custom_fields[String(field.id)]?.trim() ?? '' }))
        .filter((entry) => entry.value !== ''),
      default_member_group_id: Number(values.default_member_group_id),
      agreements: values.agreements,
    };
  }

  function createAccount() {
    const values = form.values;
    if (sso) ssoSignUp.mutate({ body: { ...admission(), sso_access_token: sso.token, sso_platform_id: sso.platformId } });
    else emailSignUp.mutate({ body: { ...admission(), email: values.email.trim(), password: values.password, auth_code: code.trim() } });
  }

  const alert = failure && (
    <Alert color="red" variant="light" role="alert" data-testid="sign-up-error">
      {messageText(failure.key, failure.values)}
    </Alert>
  );

  if (sent) {
    return (
      <CodeStep
        destination={form.values.method === 'sms' ? form.values.phone.trim() : form.values.email.trim()}
        sent={sent}
        code={code}
        onCode={setCode}
        busy={busy}
        alert={alert}
        onResend={requestCode}
        onSubmit={createAccount}
        onBack={() => {
          setFailure(null);
          setSent(null);
        }}
      />
    );
  }

  const groupName = (group: MemberGroup) => localizedName(group, language);
  return (
    <form
      noValidate
      data-testid="sign-up-form"
      onSubmit={form.onSubmit(sso ? createAccount : requestCode, (errors) => {
        setFailure(null);
        focusFirstError(form, errors);
      })}
    >
      <Stack gap="md">
        {alert}
        <TextInput label={t('name')} autoComplete="name" withAsterisk {...form.getInputProps('name')} error={fieldError('name')} />
        {sso ? (
          <Alert color="blue" variant="light" role="status" data-testid="sso-sign-up-notice">
            {t('sso_notice', { email: sso.email })}
          </Alert>
        ) : (
          <>
            <TextInput label={t('email')} type="email" autoComplete="email" withAsterisk {...form.getInputProps('email')} error={fieldError('email')} />
            <PasswordInput
              label={t('password')}
              description={t('password_rule', { count: passwordMinLength })}
              autoComplete="new-password"
              withAsterisk
              {...form.getInputProps('password')}
              error={fieldError('password')}
            />
            <PasswordInput
              label={t('password_confirm')}
              autoComplete="new-password"
              withAsterisk
              {...form.getInputProps('password_confirm')}
              error={fieldError('password_confirm')}
            />
          </>
        )}
        <Select
          label={t('member_group')}
          withAsterisk
          allowDeselect={false}
          data={groups.map((group) => ({ value: String(group.id), label: groupName(group) }))}
          {...form.getInputProps('default_member_group_id')}
          error={fieldError('default_member_group_id')}
        />
        {fields.map((field) => (
          <TextInput
            key={field.id}
            label={localizedName(field, language)}
            withAsterisk={field.is_required}
            inputMode={field.field_type === 'number' ? 'decimal' : undefined}
            description={field.field_type === 'number' ? t('number_hint') : undefined}
            {...form.getInputProps(`custom_fields.${field.id}`)}
            error={fieldError(`custom_fields.${field.id}`, localizedName(field, language))}
          />
        ))}
        {policies.length > 0 && (
          <PolicyAgreements
            policies={policies}
            agreed={form.values.agreements}
            onChange={(agreed) => form.setFieldValue('agreements', agreed)}
            error={fieldError('agreements')}
          />
        )}
        {!sso && settings.verification_methods.length > 1 && (
          <Radio.Group label={t('method.label')} {...form.getInputProps('method')}>
            <Group mt={6}>
              {settings.verification_methods.map((method) => (
                <Radio key={method} value={method} label={t(`method.${method}`)} />
              ))}
            </Group>
          </Radio.Group>
        )}
        {!sso && form.values.method === 'sms' && (
          <TextInput
            label={t('phone')}
            description={t('phone_hint')}
            type="tel"
            autoComplete="tel"
            withAsterisk
            {...form.getInputProps('phone')}
            error={fieldError('phone')}
          />
        )}
        <Button type="submit" size="md" loading={busy} fullWidth>
          {sso ? t('create_account') : t('send_code')}
        </Button>
      </Stack>
    </form>
  );
}

interface CodeStepProps {
  /** The email or phone number the code went to. */
  destination: string;
  sent: SentCode;
  code: string;
  onCode: (code: string) => void;
  busy: boolean;
  alert: ReactNode;
  onResend: () => void;
  onSubmit: () => void;
  onBack: () => void;
}

function CodeStep({ destination, sent, code, onCode, busy, alert, onResend, onSubmit, onBack }: CodeStepProps) {
  const { t } = useTranslation(['signup', 'common']);
  const resendIn = useSecondsUntil(sent.resendAt);
  const expired = useSecondsUntil(sent.expiresAt) === 0;
  const [missing, setMissing] = useState(false);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setMissing(!code.trim());
        if (code.trim()) onSubmit();
      }}
    >
      <Stack gap="md">
        <Text>{t('code.sent_to', { destination })}</Text>
        {alert}
        {expired && (
          <Alert color="orange" role="status">
            {t('code.expired')}
          </Alert>
        )}
        <TextInput
          label={t('code.label')}
          autoComplete="one-time-code"
          inputMode="numeric"
          withAsterisk
          value={code}
          onChange={(event) => onCode(event.currentTarget.value)}
          error={missing ? t('common:validation.required') : undefined}
          data-autofocus
        />
        <Button type="submit" size="md" loading={busy} fullWidth>
          {t('create_account')}
        </Button>
        <Group justify="space-between">
          <Button variant="subtle" onClick={onBack}>
            {t('code.back')}
          </Button>
          <Button variant="light" onClick={onResend} disabled={resendIn > 0 || busy}>
            {resendIn > 0 ? t('code.resend_in', { seconds: resendIn }) : t('code.resend')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function OutcomeView({ outcome }: { outcome: SignupOutcome }) {
  const { t } = useTranslation('signup');
  const navigate = useNavigate();
  return (
    <Stack gap="md" data-testid="sign-up-outcome">
      <Alert color="blue" role="status" title={t(`outcome.${outcome}_title`)}>
        {t(`outcome.${outcome}`)}
      </Alert>
      {outcome === 'pending' ? (
        <Button component={Link} to="/auth" variant="light">
          {t('sign_in_link')}
        </Button>
      ) : (
        <Button onClick={() => void navigate('/dashboard/chat', { replace: true })}>{t('outcome.start')}</Button>
      )}
    </Stack>
  );
}
