import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { billingApi } from '../../../../shared/api';
import type { BillingPlan, BillingProvider } from '../../../../shared/api/billing';
import type { SupportedLanguage } from '../../../../shared/domain/language';
import { errorMessageKey } from '../../api/errorMessages';
import { useEndpointMutation } from '../../api/endpointHooks';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { getPlatform } from '../../platform';
import { useUserSession } from '../../stores/userSession';
import { formatKrw, planName } from './format';
import { type IssueBillingKeyRequest, PortOneSdkLoadError, loadPortOneSdk } from './portOneSdk';
import { messageText } from '../../i18n/keys';

type PortOneProvider = Extract<BillingProvider, { name: 'portone' }>;

const SDK_LOCALES: Record<SupportedLanguage, NonNullable<IssueBillingKeyRequest['locale']>> = {
  ko: 'KO_KR',
  en: 'EN_US',
  zh: 'ZH_CN',
  ja: 'JA_JP',
  es: 'ES_ES',
};

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
  // The refusal is said in the dialog, next to the action.
  const register = useEndpointMutation(billingApi.registerCardAndSubscribe, { errorToast: false, onSuccess: onSubscribed });
  // The SDK's card window is not a call of ours: while it is open (or the SDK loads) the dialog waits for its answer.
  const [cardWindowOpen, setCardWindowOpen] = useState(false);
  // While the card window is open or the card is sent the dialog stays: closing it would lose the answer.
  const busy = cardWindowOpen || register.isPending;
  // The body lives inside the modal, which unmounts it when it closes; the call's state is reset with it: no error of a last attempt on the next opening.
  const close = () => {
    register.reset();
    onClose();
  };
  return (
    <Modal opened={plan !== null} onClose={close} closeOnEscape={!busy} withCloseButton={!busy} title={<Text fw={650}>{t('card.title')}</Text>} size="md">
      {plan && (
        <PortOneCardBody key={plan.id} plan={plan} provider={provider} onClose={close} register={register} busy={busy} setCardWindowOpen={setCardWindowOpen} />
      )}
    </Modal>
  );
}

interface PortOneCardBodyProps extends Omit<PortOneCardDialogProps, 'onSubscribed'> {
  plan: BillingPlan;
  register: ReturnType<typeof useEndpointMutation<typeof billingApi.registerCardAndSubscribe>>;
  busy: boolean;
  setCardWindowOpen: (open: boolean) => void;
}

function PortOneCardBody({ plan, provider, onClose, register, busy, setCardWindowOpen }: PortOneCardBodyProps) {
  const { t } = useTranslation('billing');
  const language = useResolvedLanguage();
  const member = useUserSession((state) => state.member);
  const [sdkError, setSdkError] = useState<string | null>(null);
  const error = sdkError ?? (register.error && messageText(errorMessageKey(register.error, billingApi.registerCardAndSubscribe)));
  const action = useRef<HTMLButtonElement>(null);
  const desktop = getPlatform().kind === 'desktop';

  async function issueAndRegister(chosen: BillingPlan) {
    setSdkError(null);
    register.reset();
    setCardWindowOpen(true);
    // Until the card is sent (then its call is the busy state, and no moment goes between the two).
    let sent = false;
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
        setSdkError(t('portone.not_issued'));
        return;
      }
      const body = { provider: 'portone' as const, billing_key: response.billingKey, transaction_type: response.transactionType };
      register.mutate({ params: { planId: chosen.id }, query: {}, body }, { onSettled: () => setCardWindowOpen(false) });
      sent = true;
    } catch (failure) {
      // The SDK rejects (instead of answering with a code) when the request cannot even start.
      if (failure instanceof PortOneSdkLoadError) setSdkError(t('portone.load_failed'));
      else if (failure instanceof Error && 'code' in failure) setSdkError(t('portone.not_issued'));
      else setSdkError(messageText(errorMessageKey(failure, billingApi.registerCardAndSubscribe)));
    } finally {
      if (!sent) setCardWindowOpen(false);
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
          <Button ref={action} data-autofocus loading={busy} onClick={() => void issueAndRegister(plan)} data-testid="portone-open">
            {t('portone.open', { price: formatKrw(plan.krw_month_price, language) })}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
