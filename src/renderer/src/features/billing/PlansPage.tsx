import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Modal, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { billingApi, creditsApi, tenantMembershipApi } from '../../../../shared/api';
import type { BillingPlan, Membership } from '../../../../shared/api/billing';
import { errorMessageKey } from '../../api/errorMessages';
import { refreshCredits } from '../../api/credits';
import { invalidateEndpoints, useEndpointMutation, useEndpointQuery } from '../../api/endpointHooks';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageFrame } from '../../components/PageFrame';
import { showToast } from '../../components/toast';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { CardForm } from './CardForm';
import { PaymentHistory } from './PaymentHistory';
import { PortOneCardDialog } from './PortOneCardDialog';
import { formatCredits, formatDay, formatKrw, planName } from './format';
import { messageText } from '../../i18n/keys';

type Current = NonNullable<Membership['membership']>;

/** What choosing `plan` does, given the membership: the spec's upgrade now / downgrade later rule. */
function choiceOf(plan: BillingPlan, current: Current | null): 'current' | 'keep' | 'subscribe' | 'upgrade' | 'downgrade' {
  if (!current) return 'subscribe';
  if (current.plan.id === plan.id) return current.next_plan ? 'keep' : 'current';
  return plan.krw_month_price > current.price ? 'upgrade' : 'downgrade';
}

function SectionCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card component="section" withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function MembershipSummary({ view, onCancel, onResume, busy }: { view: Membership; onCancel: () => void; onResume: () => void; busy: boolean }) {
  const { t } = useTranslation('billing');
  const language = useResolvedLanguage();
  const current = view.membership;
  if (!current) {
    return (
      <Stack gap={4} data-testid="membership-summary">
        <Text fw={600}>{view.current_plan ? planName(view.current_plan, language) : t('summary.no_plan')}</Text>
        <Text size="sm" c="dimmed">
          {view.current_plan ? t('summary.not_billed') : t('summary.choose')}
        </Text>
      </Stack>
    );
  }
  const date = current.next_payment_date ? formatDay(current.next_payment_date, language) : '';
  return (
    <Stack gap="xs" data-testid="membership-summary">
      <Group gap="sm">
        <Text fw={600}>{planName(current.plan, language)}</Text>
        <Badge color={current.status === 'active' ? 'teal' : 'orange'} variant="light">
          {t(`summary.status_${current.status}`)}
        </Badge>
      </Group>
      <Text size="sm">{t('summary.price', { price: formatKrw(current.price, language) })}</Text>
      {current.status === 'cancelled' ? (
        <Text size="sm" data-testid="membership-ends">
          {t('summary.ends_on', { date })}
        </Text>
      ) : (
        <Text size="sm">{t('summary.renews_on', { date })}</Text>
      )}
      {current.next_plan && <Text size="sm">{t('summary.changes_on', { plan: planName(current.next_plan, language), date })}</Text>}
      {current.failed_attempts > 0 && current.next_attempt_at && (
        <Alert color="orange" variant="light">
          {t('summary.payment_failed', { date: formatDay(current.next_attempt_at.slice(0, 10), language) })}
        </Alert>
      )}
      {current.payment_method && (
        <Text size="sm" c="dimmed">
          {t('summary.card', { card: `${current.payment_method.card_name} ${current.payment_method.card_number}` })}
        </Text>
      )}
      {view.can_manage && (
        <Group mt="xs">
          {current.status === 'cancelled' ? (
            <Button onClick={onResume} loading={busy} data-testid="membership-resume">
              {t('summary.resume')}
            </Button>
          ) : (
            <Button variant="default" color="red" onClick={onCancel} data-testid="membership-cancel">
              {t('summary.cancel')}
            </Button>
          )}
        </Group>
      )}
    </Stack>
  );
}

/** Route /dashboard/plans (spec §2 upgrade prompts, §3, §4): plans, the membership, card payments and the purchase history. */
export default function PlansPage() {
  const { t } = useTranslation('billing');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const plans = useEndpointQuery(billingApi.listBillingPlans, {});
  const membership = useEndpointQuery(billingApi.getMembership, {});
  const [cardFor, setCardFor] = useState<BillingPlan | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [confirmPay, setConfirmPay] = useState<BillingPlan | null>(null);

  // A payment grants credits: the navigation's figures and the credits page read them again.
  const refresh = () =>
    Promise.all([
      refreshCredits(queryClient),
      invalidateEndpoints(queryClient, [
        billingApi.listBillingPlans,
        billingApi.getMembership,
        billingApi.listPayments,
        tenantMembershipApi.getTenantMembership,
        creditsApi.listCredits,
      ]),
    ]);
  // The page is busy until what changed is read again; the success toast (mutate's own onSuccess) comes after.
  const subscribe = useEndpointMutation(billingApi.subscribeToPlan, { onSuccess: refresh });
  const resume = useEndpointMutation(billingApi.resumeMembership, { onSuccess: refresh });
  const cancel = useEndpointMutation(billingApi.cancelMembership, { onSuccess: refresh });
  const busy = subscribe.isPending || resume.isPending || cancel.isPending;

  if (plans.isPending || membership.isPending) {
    return (
      <PageFrame title={t('title')} description={t('description')}>
        <Skeleton h={240} />
      </PageFrame>
    );
  }
  if (plans.isError || membership.isError) {
    return (
      <PageFrame title={t('title')} description={t('description')}>
        <Alert color="red" variant="light" role="alert">
          {messageText(errorMessageKey(plans.error ?? membership.error, billingApi.getMembership))}
        </Alert>
      </PageFrame>
    );
  }
  const view = membership.data;
  const provider = plans.data.provider;
  const current = view.membership;
  // The card on the membership, else one registered before (a membership that ended).
  const card = current?.payment_method ?? view.payment_methods[0] ?? null;

  const cardDialog = {
    plan: cardFor,
    onClose: () => setCardFor(null),
    onSubscribed: () => {
      const name = cardFor ? planName(cardFor, language) : '';
      setCardFor(null);
      void refresh();
      showToast('success', t('toast.subscribed', { plan: name }));
    },
  };

  function choose(plan: BillingPlan) {
    const choice = choiceOf(plan, current);
    if (choice === 'subscribe' || choice === 'upgrade') return card ? setConfirmPay(plan) : setCardFor(plan);
    change(plan);
  }

  function change(plan: BillingPlan) {
    const choice = choiceOf(plan, current);
    const name = planName(plan, language);
    const date = current?.next_payment_date ? formatDay(current.next_payment_date, language) : '';
    const messages = {
      subscribe: t('toast.subscribed', { plan: name }),
      upgrade: t('toast.upgraded', { plan: name }),
      downgrade: t('toast.downgrade', { plan: name, date }),
      keep: t('toast.kept', { plan: name }),
      current: '',
    };
    subscribe.mutate(
      { params: { planId: plan.id }, body: card ? { payment_method_id: card.id } : {} },
      { onSuccess: () => showToast('success', messages[choice]) },
    );
  }

  return (
    <PageFrame title={t('title')} description={t('description')}>
      <Stack gap="lg">
        {!view.can_manage && (
          <Alert color="blue" variant="light" data-testid="contact-admin">
            {t('contact_admin')}
          </Alert>
        )}
        <SectionCard title={t('summary.title')}>
          <MembershipSummary
            view={view}
            busy={busy}
            onCancel={() => setConfirmCancel(true)}
            onResume={() => resume.mutate(undefined, { onSuccess: () => showToast('success', t('toast.resumed')) })}
          />
        </SectionCard>

        <section aria-labelledby="plans-heading">
          <Title order={2} size="h4" mb="md" id="plans-heading">
            {t('plans.title')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {plans.data.items.map((plan) => {
              const choice = choiceOf(plan, current);
              const isCurrent = current ? current.plan.id === plan.id : view.current_plan?.id === plan.id;
              return (
                <Card key={plan.id} withBorder radius="md" padding="lg" data-testid={`plan-${plan.id}`}>
                  <Stack gap="xs" h="100%">
                    <Group justify="space-between" wrap="nowrap">
                      <Title order={3} size="h5">
                        {planName(plan, language)}
                      </Title>
                      {isCurrent && (
                        <Badge variant="light" color="teal">
                          {t('plans.current')}
                        </Badge>
                      )}
                    </Group>
                    <Text fz={28} fw={700}>
                      {formatKrw(plan.krw_month_price, language)}
                      <Text span size="sm" c="dimmed" fw={400}>
                        {' '}
                        {t('plans.per_month')}
                      </Text>
                    </Text>
                    <Text size="sm">{t('plans.credits', { credits: formatCredits(plan.credit, language) })}</Text>
                    {view.can_manage && (
                      <Button
                        mt="auto"
                        variant={choice === 'upgrade' || choice === 'subscribe' ? 'filled' : 'default'}
                        disabled={choice === 'current' || current?.status === 'cancelled'}
                        loading={busy}
                        onClick={() => choose(plan)}
                        data-testid={`plan-${plan.id}-action`}
                      >
                        {t(`plans.action_${choice}`)}
                      </Button>
                    )}
                  </Stack>
                </Card>
              );
            })}
          </SimpleGrid>
          {view.can_manage && (
            <Text size="sm" c="dimmed" mt="sm">
              {t(view.scope === 'member' ? 'plans.rules_individual' : 'plans.rules')}
            </Text>
          )}
          {/* Individuals have no administrator: billing questions go to customer support. */}
          {view.scope === 'member' && (
            <Text size="sm" c="dimmed" mt="xs">
              {t('support_hint')}
            </Text>
          )}
        </section>

        {view.can_manage && (
          <SectionCard title={t('history.title')}>
            <PaymentHistory />
          </SectionCard>
        )}
      </Stack>

      {/* The card window is the provider's: our own form for the demo, PortOne's SDK window otherwise. */}
      {provider.name === 'portone' ? <PortOneCardDialog {...cardDialog} provider={provider} /> : <CardForm {...cardDialog} />}
      <Modal opened={confirmPay !== null} onClose={() => setConfirmPay(null)} title={<Text fw={650}>{t('pay_dialog.title')}</Text>} size="sm">
        {confirmPay && card && (
          <Stack gap="md">
            <Text size="sm">
              {t('pay_dialog.body', {
                plan: planName(confirmPay, language),
                price: formatKrw(confirmPay.krw_month_price, language),
                card: `${card.card_name} ${card.card_number}`,
              })}
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button
                variant="default"
                onClick={() => {
                  setCardFor(confirmPay);
                  setConfirmPay(null);
                }}
              >
                {t('pay_dialog.new_card')}
              </Button>
              <Button
                data-autofocus
                data-testid="pay-confirm"
                onClick={() => {
                  const plan = confirmPay;
                  setConfirmPay(null);
                  change(plan);
                }}
              >
                {t('pay_dialog.confirm', { price: formatKrw(confirmPay.krw_month_price, language) })}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <ConfirmDialog
        opened={confirmCancel}
        title={t('cancel_dialog.title')}
        body={t('cancel_dialog.body', { date: current?.next_payment_date ? formatDay(current.next_payment_date, language) : '' })}
        cancelLabel={t('cancel_dialog.keep')}
        confirmLabel={t('cancel_dialog.confirm')}
        loading={busy}
        onCancel={() => setConfirmCancel(false)}
        onConfirm={() => {
          setConfirmCancel(false);
          cancel.mutate(undefined, { onSuccess: () => showToast('success', t('toast.cancelled')) });
        }}
      />
    </PageFrame>
  );
}
