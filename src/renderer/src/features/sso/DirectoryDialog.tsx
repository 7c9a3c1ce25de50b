import { useState } from 'react';
import { Alert, Button, Group, Modal, PasswordInput, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isApiError, ssoApi, type SsoPlatform, type SsoVerified } from '../../../../shared/api';
import type { EndpointResponse } from '../../../../shared/api/endpoint';
import type { VerificationMethod } from '../../../../shared/domain/signup';
import { useEndpointMutation } from '../../api/endpointHooks';
import { useSecondsUntil } from '../../components/useSecondsUntil';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { ssoFailureKey } from './useSsoCompletion';
import { messageText } from '../../i18n/keys';

interface Props {
  platform: SsoPlatform;
  onClose: () => void;
  /** The directory and the code both vouched for the user. */
  onVerified: (identity: SsoVerified) => Promise<void>;
}

type CodeSent = Extract<EndpointResponse<typeof ssoApi.ssoVerify>, { step: 'code_sent' }>;

/**
 * Directory sign-in (spec §7): the user ID and password the directory checks, then the code it
 * sends to the user's email or phone. Also used on My page to connect the account.
 */
export function DirectoryDialog({ platform, onClose, onVerified }: Props) {
  const { t } = useTranslation('sso');
  const { t: tc } = useTranslation();
  const language = useResolvedLanguage();
  const [userId, setUserId] = useState('');
  const [password, setPassword] = useState('');
  const [method, setMethod] = useState<VerificationMethod>(platform.verification_methods[0] ?? 'email');
  const [sent, setSent] = useState<CodeSent | null>(null);
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const codeSent = (answer: CodeSent) => {
    setSent(answer);
    setCode('');
  };
  // A refusal is said in the dialog, not in a toast. The verify and send-code calls share their messages (errorCatalog), so one lookup serves both.
  const stepOptions = {
    errorToast: false,
    onMutate: () => setFailure(null),
    onError: (error: Error) => {
      const seconds = (isApiError(error) ? (error.body?.details as { retry_after_seconds?: number } | undefined)?.retry_after_seconds : undefined) ?? 60;
      setFailure(messageText(ssoFailureKey(error), { seconds }));
    },
  };
  // The dialog stays busy while a verified identity is completed (signed in or connected).
  const verify = useEndpointMutation(ssoApi.ssoVerify, {
    ...stepOptions,
    onSuccess: (answer) => (answer.step === 'code_sent' ? codeSent(answer) : onVerified(answer)),
  });
  const resendCode = useEndpointMutation(ssoApi.ssoSendCode, { ...stepOptions, onSuccess: codeSent });
  const busy = verify.isPending || resendCode.isPending;

  const checkCredentials = () => verify.mutate({ params: { id: platform.id }, body: { user_id: userId.trim(), user_pw: password, method, language } });

  const checkCode = () => {
    if (!sent) return;
    verify.mutate({ params: { id: platform.id }, body: { code: code.trim(), verification_id: sent.verification_id, auth_token: sent.auth_token } });
  };

  const resend = () => {
    if (!sent) return;
    resendCode.mutate({
      params: { id: platform.id },
      body: { method, user_id: userId.trim(), verification_id: sent.verification_id, auth_token: sent.auth_token, language },
    });
  };

  const required = (name: string) => (missing.includes(name) ? tc('validation.required') : undefined);
  const alert = failure && (
    <Alert color="red" variant="light" role="alert" data-testid="sso-error">
      {failure}
    </Alert>
  );

  return (
    <Modal opened onClose={onClose} title={t('directory_title', { name: platform.sso_platform_name })} centered>
      {sent ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setMissing(code.trim() ? [] : ['code']);
            if (code.trim()) checkCode();
          }}
        >
          <CodeFields
            sent={sent}
            code={code}
            onCode={setCode}
            error={required('code')}
            alert={alert}
            busy={busy}
            onResend={resend}
            onBack={() => setSent(null)}
          />
        </form>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const empty = [...(userId.trim() ? [] : ['user_id']), ...(password ? [] : ['password'])];
            setMissing(empty);
            if (empty.length === 0) checkCredentials();
          }}
        >
          <Stack gap="md">
            {alert}
            <TextInput
              label={t('user_id')}
              autoComplete="username"
              withAsterisk
              value={userId}
              onChange={(e) => setUserId(e.currentTarget.value)}
              error={required('user_id')}
              data-autofocus
            />
            <PasswordInput
              label={t('password')}
              autoComplete="current-password"
              withAsterisk
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={required('password')}
            />
            {platform.verification_methods.length > 1 && (
              <Radio.Group label={t('method.label')} value={method} onChange={(value) => setMethod(value as VerificationMethod)}>
                <Group mt={6}>
                  {platform.verification_methods.map((option) => (
                    <Radio key={option} value={option} label={t(`method.${option}`)} />
                  ))}
                </Group>
              </Radio.Group>
            )}
            <Button type="submit" loading={busy} fullWidth>
              {t('continue')}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

interface CodeFieldsProps {
  sent: CodeSent;
  code: string;
  onCode: (code: string) => void;
  error?: string;
  alert: React.ReactNode;
  busy: boolean;
  onResend: () => void;
  onBack: () => void;
}

function CodeFields({ sent, code, onCode, error, alert, busy, onResend, onBack }: CodeFieldsProps) {
  const { t } = useTranslation('sso');
  const resendIn = useSecondsUntil(Date.parse(sent.resend_available_at));
  const expired = useSecondsUntil(Date.parse(sent.expires_at)) === 0;
  return (
    <Stack gap="md">
      <Text>{t('code_sent_to', { destination: sent.destination })}</Text>
      {alert}
      {expired && (
        <Alert color="orange" role="status">
          {t('code_expired')}
        </Alert>
      )}
      <TextInput
        label={t('code')}
        autoComplete="one-time-code"
        inputMode="numeric"
        withAsterisk
        value={code}
        onChange={(e) => onCode(e.currentTarget.value)}
        error={error}
        data-autofocus
      />
      <Button type="submit" loading={busy} fullWidth>
        {t('verify')}
      </Button>
      <Group justify="space-between">
        <Button variant="subtle" onClick={onBack}>
          {t('back')}
        </Button>
        <Button variant="light" onClick={onResend} disabled={resendIn > 0 || busy}>
          {resendIn > 0 ? t('resend_in', { seconds: resendIn }) : t('resend')}
        </Button>
      </Group>
    </Stack>
  );
}
