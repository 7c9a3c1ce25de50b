import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Loader, PasswordInput, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { invitationsApi, type Invitation, type Policy } from '../../../../shared/api';
import { validateName } from '../../../../shared/domain/signup';
import { errorMessageKey } from '../../api/errorMessages';
import { useEndpointMutation, useEndpointQuery } from '../../api/endpointHooks';
import { usePolicies } from '../../api/signup';
import { usePasswordMinLength } from '../../api/tenant';
import { showToast } from '../../components/toast';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { focusFirstError, formErrorText } from '../../components/forms/zodResolver';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { getPlatform } from '../../platform';
import { useUserSession } from '../../stores/userSession';
import { PolicyAgreements } from '../signup/PolicyAgreements';
import { AuthCard } from './AuthCard';
import { NewPasswordFields, type NewPasswordValues, newPasswordRules } from './NewPasswordFields';
import { messageText } from '../../i18n/keys';

interface JoinValues extends NewPasswordValues {
  temporary_password: string;
  name: string;
  agreements: number[];
}

/**
 * Route /auth/invitation/:hash, opened from the invitation mail (spec §2 "Accept invitation"):
 * the temporary password of the mail, one's name and own password, the policies; then the member is
 * signed in and welcomed (the subscription toast, spec §4). `?tenant=` sets the workspace first.
 */
export default function InvitationPage() {
  const { t } = useTranslation('account');
  const { hash = '' } = useParams();
  const [search] = useSearchParams();
  const tenant = search.get('tenant');
  const [workspaceSet, setWorkspaceSet] = useState(!tenant);
  const member = useUserSession((state) => state.member);
  // Asked once the link's workspace is set; a used or unknown link is said at once, not retried.
  const invitation = useEndpointQuery(invitationsApi.verifyInvitation, { params: { hash } }, { enabled: workspaceSet, retry: false });
  const policies = usePolicies();
  useDocumentTitle(t('invitation.title'));

  useEffect(() => {
    if (tenant)
      void getPlatform()
        .settings.set({ subdomain: tenant })
        .then(() => setWorkspaceSet(true));
  }, [tenant]);

  if (member) return <Navigate to="/dashboard/chat" replace />;
  if (invitation.isError) {
    const gone = errorMessageKey(invitation.error, invitationsApi.verifyInvitation) === 'account:invitation.not_found';
    return (
      <AuthCard title={t('invitation.title')}>
        <Alert color={gone ? 'orange' : 'red'} variant="light" role="alert" data-testid="invitation-invalid">
          {messageText(errorMessageKey(invitation.error, invitationsApi.verifyInvitation))}
        </Alert>
        <Anchor component={Link} to="/auth" size="sm" ta="center">
          {t('back_to_sign_in')}
        </Anchor>
      </AuthCard>
    );
  }
  if (!invitation.data || !policies.data) {
    return (
      <AuthCard title={t('invitation.title')}>
        <Loader mx="auto" aria-label={t('invitation.loading')} />
      </AuthCard>
    );
  }
  return <JoinForm hash={hash} invitation={invitation.data} policies={policies.data} />;
}

function JoinForm({ hash, invitation, policies }: { hash: string; invitation: Invitation; policies: Policy[] }) {
  const { t } = useTranslation('account');
  const language = useResolvedLanguage();
  const navigate = useNavigate();
  const setMember = useUserSession((state) => state.setMember);
  // Joining is accepting, then signing in with the new password: the page is busy (and a refusal said above the form) through both.
  const accept = useEndpointMutation(invitationsApi.acceptInvitation, {
    errorToast: false,
    onSuccess: async (joined, { body }) => {
      setMember(await getPlatform().session.signIn({ email: body.email, password: body.password }));
      showToast('success', t('invitation.welcome', { tenant: joined.tenant_name }));
      void navigate('/dashboard/chat', { replace: true });
    },
  });
  const failure = accept.error && messageText(errorMessageKey(accept.error, invitationsApi.acceptInvitation));
  const minLength = usePasswordMinLength();
  const form = useForm<JoinValues>({
    mode: 'controlled',
    initialValues: { temporary_password: '', name: invitation.name ?? '', new_password: '', confirmation: '', agreements: [] },
    validate: {
      ...newPasswordRules(minLength),
      temporary_password: (value) => (value ? null : 'common:validation.required'),
      name: (value) => (value.trim() ? (validateName(value) ? 'signup:validation.name_length' : null) : 'common:validation.required'),
      agreements: (agreed) => (policies.some((policy) => policy.is_mandatory && !agreed.includes(policy.id)) ? 'signup:validation.policies_required' : null),
    },
  });
  const error = (field: keyof JoinValues) => formErrorText(form.errors[field], { count: minLength });

  function join(values: JoinValues) {
    const body = {
      email: invitation.email,
      name: values.name.trim(),
      password: values.new_password,
      agreements: values.agreements,
      temporary_password: values.temporary_password,
      language,
    };
    accept.mutate({ params: { hash }, body });
  }

  return (
    <AuthCard
      title={t('invitation.join_title', { tenant: invitation.tenant_name })}
      intro={t('invitation.intro')}
      onSubmit={form.onSubmit(join, (errors) => {
        accept.reset();
        focusFirstError(form, errors);
      })}
    >
      {failure && (
        <Alert color="red" variant="light" role="alert" data-testid="invitation-error">
          {failure}
        </Alert>
      )}
      <div>
        <Text size="sm" fw={500}>
          {t('email')}
        </Text>
        <Text size="sm" c="dimmed" data-testid="invitation-email">
          {invitation.email}
        </Text>
      </div>
      <PasswordInput
        label={t('invitation.temporary_password')}
        description={t('invitation.temporary_hint')}
        autoComplete="one-time-code"
        withAsterisk
        {...form.getInputProps('temporary_password')}
        error={error('temporary_password')}
        data-autofocus
      />
      <TextInput label={t('my_page.name')} autoComplete="name" withAsterisk {...form.getInputProps('name')} error={error('name')} />
      <NewPasswordFields form={form} minLength={minLength} />
      {policies.length > 0 && (
        <PolicyAgreements
          policies={policies}
          agreed={form.values.agreements}
          onChange={(agreed) => form.setFieldValue('agreements', agreed)}
          error={error('agreements')}
        />
      )}
      <Button type="submit" size="md" loading={accept.isPending} fullWidth>
        {t('invitation.join')}
      </Button>
    </AuthCard>
  );
}
