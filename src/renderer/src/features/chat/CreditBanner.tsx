import { useEffect, useState, useSyncExternalStore } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Chatbot } from '../../../../shared/api';
import { displayCredits, shownCreditFigures } from '../../../../shared/domain/credits';
import { useDashboardChatbots } from '../../api/chatbots';
import { refreshCredits, useMemberUsage } from '../../api/credits';
import { useTenant } from '../../api/tenant';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { useUserSession } from '../../stores/userSession';
import type { ChatRun } from './chatRun';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { contactKey, creditNotice, dismiss, dismissalKey } from '../credits/creditNotice';
import { messageText } from '../../i18n/keys';

const noSubscription = () => () => {};
const isFinal = (status: string | undefined) => status === 'done' || status === 'stopped' || status === 'failed';

/** Reads the credit figures again once a send is charged or refused. */
function useRefreshAfterSend(run: ChatRun | null, memberId: number | undefined) {
  const queryClient = useQueryClient();
  const status = useSyncExternalStore(run?.subscribe ?? noSubscription, () => run?.getSnapshot().status);
  const settled = isFinal(status);
  useEffect(() => {
    if (settled && memberId !== undefined) void refreshCredits(queryClient);
  }, [settled, run, memberId, queryClient]);
}

/** Credit warnings and the depleted state above the composer (spec §4, §9 and "Upgrade prompts for credits"). */
export function CreditBanner({ chatbot, run }: { chatbot: Chatbot; run: ChatRun | null }) {
  const { t } = useTranslation('credits');
  const language = useResolvedLanguage();
  const member = useUserSession((state) => state.member);
  const usage = useMemberUsage(member?.id);
  const tenant = useTenant();
  const chatbots = useDashboardChatbots();
  // Re-renders after a dismissal, which lives in localStorage.
  const [, setDismissals] = useState(0);
  useRefreshAfterSend(run, member?.id);

  if (!member || !usage.data || !tenant.data) return null;
  const notice = creditNotice({
    usage: usage.data,
    memberId: member.id,
    chatbot,
    chatbots: chatbots.data?.items ?? [],
    isLowLlmFree: tenant.data.plan.is_low_llm_free,
    store: localStorage,
  });
  if (!notice) return null;

  const close = (key: Parameters<typeof dismissalKey>[2]) => () => {
    dismiss(localStorage, dismissalKey(member.id, usage.data.period_start, key));
    setDismissals((count) => count + 1);
  };
  const frame = { mx: 'auto', maw: 772, w: '100%', variant: 'light', closeButtonLabel: t('dismiss') } as const;
  // The upgrade prompt: those who pay for the plan (an individual, an organisation's administrator) get a way to the plans page.
  const canUpgrade = member.member_type === 'individual' || member.is_admin;
  const plansLink = (color: string) =>
    canUpgrade && (
      <Button component={Link} to="/dashboard/plans" size="xs" color={color} variant="white" data-testid="credit-plans-link">
        {t('see_plans')}
      </Button>
    );

  if (notice.type === 'depleted') {
    return (
      <Alert {...frame} color="red" title={t('depleted_title')} data-testid="credit-depleted" data-depletion={notice.depletion}>
        <Stack gap={6}>
          <Text size="sm">
            {t(`depleted.${notice.depletion}`)} {messageText(contactKey(notice.depletion, member.member_type))}
          </Text>
          {((notice.lowTier && notice.lowTier.id !== chatbot.id) || canUpgrade) && (
            <Group>
              {notice.lowTier && notice.lowTier.id !== chatbot.id && (
                <Button component={Link} to={`/dashboard/chat/${notice.lowTier.id}`} size="xs" color="red" variant="white" data-testid="credit-low-tier-link">
                  {t('use_low_tier', { name: chatbotName(notice.lowTier, language) })}
                </Button>
              )}
              {plansLink('red')}
            </Group>
          )}
        </Stack>
      </Alert>
    );
  }
  if (notice.type === 'free_model') {
    return (
      <Alert {...frame} color="blue" withCloseButton onClose={close('free_model')} data-testid="credit-free-model">
        <Text size="sm">{t('free_model')}</Text>
      </Alert>
    );
  }
  const figures = {
    percent: displayCredits(usage.data.percentage_used ?? 0),
    remaining: (shownCreditFigures(usage.data).remaining ?? displayCredits(usage.data.remaining ?? 0)).toLocaleString(language),
    // A send goes through while any credit is left, so the last one counts as one message.
    count: Math.max(1, usage.data.estimated_messages_left ?? 0),
  };
  return (
    <Alert
      {...frame}
      color={notice.warning === 'used_50' ? 'blue' : 'yellow'}
      withCloseButton
      onClose={close(notice.warning)}
      data-testid="credit-warning"
      data-warning={notice.warning}
    >
      <Stack gap={6}>
        <Text size="sm">
          {t(`warning.${notice.warning}`, figures)}
          {notice.warning !== 'used_50' && ` ${messageText(contactKey(usage.data.depletion_kind ?? 'team', member.member_type))}`}
        </Text>
        {notice.warning !== 'used_50' && canUpgrade && <Group>{plansLink('yellow')}</Group>}
      </Stack>
    </Alert>
  );
}
