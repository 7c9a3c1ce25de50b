import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { billingApi } from '../../../../shared/api';
import type { BillingPlan, BillingProvider } from '../../../../shared/api/billing';
import type { SupportedLanguage } from '../../../../shared/domain/language';
import { errorMessageKey } from '../../api/errorMessages';
import { registerCardAndSubscribe } from '../../api/billing';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { getPlatform } from '../../platform';
import { useUserSession } from '../../stores/userSession';
import { formatKrw, planName } from './format';
import { type IssueBillingKeyRequest, PortOneSdkLoadError, loadPortOneSdk } from './portOneSdk';

type PortOneProvider = Extract<BillingProvider, { name: 'portone' }>;

const SDK_LOCALES: Record<SupportedLanguage, NonNullable<IssueBillingKeyRequest['locale']>> = { ko: 'KO_KR', en: 'EN_US', zh: 'ZH_CN', ja: 'JA_JP', es: 'ES_ES' };

interface PortOneCardDialogProps {
  plan: BillingPlan | null;
  provider: PortOneProvider;
  onClose: () => void;
  onSubscribed: () => void;
}

/**
 * PortOne's card registration: its browser SDK opens the card window (the card never reaches this
 * page or our server) and gives a billing key, which the server checks with PortOne before it
 * charges. A closed window or a PG refusal comes back as a code: nothing is sent, nothing charged.
 * The desktop app does not run the SDK (docs/decisions/0057-plans-and-membership.md):
 * it sends the member to the plans page in their browser.
 */
export function PortOneCardDialog({ plan, provider, onClose, onSubscribed }: PortOneCardDialogProps) {
  const { t } = useTranslation('billing');
  // While the card window is open the dialog stays: closing it would lose the SDK's answer.
  const [busy, setBusy] = useState(false);
  // The body lives inside the modal, which unmounts it when it closes: no error of a last attempt on the next opening.
  return (
    <Modal opened={plan !== null} onClose={onClose} closeOnEscape={!busy} withCloseButton={!busy} title={<Text fw={650}>{t('card.title')}</Text>} size="md">
      {plan && <PortOneCardBody key={plan.id} plan={plan} provider={provider} onClose={onClose} onSubscribed={onSubscribed} busy={busy} setBusy={setBusy} />}
    </Modal>
  );
}

interface PortOneCardBodyProps extends PortOneCardDialogProps {
  plan: BillingPlan;
  busy: boolean;
  setBusy: (busy: boolean) => void;
}

function PortOneCardBody({ plan, provider, onClose, onSubscribed, busy, setBusy }: PortOneCardBodyProps) {
  const { t } = useTranslation('billing');
  const language = useResolvedLanguage();
  const member = useUserSession((state) => state.member);
  const [error, setError] = useState<string | null>(null);
  const action = useRef<HTMLButtonElement>(null);
  const desktop = getPlatform().kind === 'desktop';

  async function register(chosen: BillingPlan) {
    setError(null);
    setBusy(true);
    try {
      const sdk = await loadPortOneSdk(provider.sdk_url);
      const response = await sdk.requestIssueBillingKey({
        storeId: provider.store_id,
        channelKey: provider.channel_key,
        billingKeyMethod: 'CARD',
        issueId: `issue-${crypto.randomUUID()}`,
        issueName: planName(chosen, language),
        displayAmount: chosen.krw_month_price,
        currency: 'KRW',
        customer: member ? { customerId: String(member.id), fullName: member.name, email: member.email } : undefined,
        locale: SDK_LOCALES[language],
      });
      if (!response?.billingKey || response.code) {
        setError(t('portone.not_issued'));
        return;
      }
      await registerCardAndSubscribe(chosen.id, { provider: 'portone', billing_key: response.billingKey, transaction_type: response.transactionType });
      onSubscribed();
    } catch (failure) {
      // The SDK rejects (instead of answering with a code) when the request cannot even start.
      if (failure instanceof PortOneSdkLoadError) setError(t('portone.load_failed'));
      else if (failure instanceof Error && 'code' in failure) setError(t('portone.not_issued'));
      else setError(t(errorMessageKey(failure, billingApi.registerCardAndSubscribe)));
    } finally {
      setBusy(false);
    }
  }

  // The card window took the focus with it: give it back to the action once it is enabled again.
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !busy) action.current?.focus();
    wasBusy.current = busy;
  }, [busy]);

  async function openInBrowser() {
    const { apiBase } = await getPlatform().settings.get();
    getPlatform().openExternal(new URL('/dashboard/plans', apiBase).href);
  }

  return (
    <Stack gap="sm">
      <Text size="sm">{t('card.summary', { plan: planName(plan, language), price: formatKrw(plan.krw_month_price, language) })}</Text>
      <Text size="sm" c="dimmed">
        {t(desktop ? 'portone.desktop_hint' : 'portone.hint')}
      </Text>
      {error && (
        <Alert color="red" variant="light" role="alert" data-testid="portone-error">
          {error}
        </Alert>
      )}
      {/* The button's spinner shows it; a screen reader hears it. */}
      <VisuallyHidden aria-live="polite">{busy ? t('portone.in_progress') : ''}</VisuallyHidden>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose} disabled={busy}>
          {t('cancel')}
        </Button>
        {desktop ? (
          <Button data-autofocus onClick={() => void openInBrowser()}>
            {t('portone.open_browser')}
          </Button>
        ) : (
          <Button ref={action} data-autofocus loading={busy} onClick={() => void register(plan)} data-testid="portone-open">
            {t('portone.open', { price: formatKrw(plan.krw_month_price, language) })}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
