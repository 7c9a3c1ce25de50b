import { useState } from 'react';
import { Alert, Button, Group, Modal, PasswordInput, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isApiError, type SsoPlatform, type SsoVerified } from '../../../../shared/api';
import type { VerificationMethod } from '../../../../shared/domain/signup';
import { resendSsoCode, verifySso } from '../../api/sso';
import { useSecondsUntil } from '../../components/useSecondsUntil';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { ssoFailureKey } from './useSsoCompletion';

interface Props {
  platform: SsoPlatform;
  onClose: () => void;
  /** The directory and the code both vouched for the user. */
  onVerified: (identity: SsoVerified) => Promise<void>;
}

type CodeSent = Extract<Awaited<ReturnType<typeof verifySso>>, { step: 'code_sent' }>;

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
  const [busy, setBusy] = useState(false);

  async function run(work: () => Promise<void>) {
    setFailure(null);
    setBusy(true);
    try {
      await work();
    } catch (error) {
      const seconds = (isApiError(error) ? (error.body?.details as { retry_after_seconds?: number } | undefined)?.retry_after_seconds : undefined) ?? 60;
      // The verify and send-code calls share their messages (errorCatalog), so one lookup serves both.
      setFailure(t(ssoFailureKey(error), { seconds }));
    } finally {
      setBusy(false);
    }
  }

  const checkCredentials = () =>
    run(async () => {
      const answer = await verifySso(platform.id, { user_id: userId.trim(), user_pw: password, method, language });
      if (answer.step === 'code_sent') {
        setSent(answer);
        setCode('');
      }
    });

  const checkCode = () =>
    run(async () => {
      if (!sent) return;
      const answer = await verifySso(platform.id, { code: code.trim(), verification_id: sent.verification_id, auth_token: sent.auth_token });
      if (answer.step === 'verified') await onVerified(answer);
    });

  const resend = () =>
    run(async () => {
      if (!sent) return;
      setSent(await resendSsoCode(platform.id, { method, user_id: userId.trim(), verification_id: sent.verification_id, auth_token: sent.auth_token, language }));
      setCode('');
    });

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
            if (code.trim()) void checkCode();
          }}
        >
          <CodeFields sent={sent} code={code} onCode={setCode} error={required('code')} alert={alert} busy={busy} onResend={() => void resend()} onBack={() => setSent(null)} />
        </form>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const empty = [...(userId.trim() ? [] : ['user_id']), ...(password ? [] : ['password'])];
            setMissing(empty);
            if (empty.length === 0) void checkCredentials();
          }}
        >
          <Stack gap="md">
            {alert}
            <TextInput label={t('user_id')} autoComplete="username" withAsterisk value={userId} onChange={(e) => setUserId(e.currentTarget.value)} error={required('user_id')} data-autofocus />
            <PasswordInput label={t('password')} autoComplete="current-password" withAsterisk value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={required('password')} />
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
      <TextInput label={t('code')} autoComplete="one-time-code" inputMode="numeric" withAsterisk value={code} onChange={(e) => onCode(e.currentTarget.value)} error={error} data-autofocus />
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
