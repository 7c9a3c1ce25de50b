import { Alert, Anchor, Skeleton, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { tenantMembershipApi } from '../../../../shared/api';
import { errorMessageKey } from '../../api/errorMessages';
import { useEndpointQuery } from '../../api/endpointHooks';
import { formatDate } from '../../i18n/formatDate';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { messageText } from '../../i18n/keys';

/** My page: the workspace's plan, seats in use and a pending plan change (`GET /tenants/membership/`). */
export function WorkspacePlanSection() {
  const { t } = useTranslation('account');
  const language = useResolvedLanguage();
  const membership = useEndpointQuery(tenantMembershipApi.getTenantMembership, {});
  if (membership.isPending) return <Skeleton h={48} maw={420} />;
  if (membership.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {messageText(errorMessageKey(membership.error, tenantMembershipApi.getTenantMembership))}
      </Alert>
    );
  }
  const { plan, next_plan: nextPlan, next_payment_date: nextPayment, member_count: members, membership_status: status } = membership.data;
  const nameOf = (p: NonNullable<typeof plan>) => (language === 'ko' ? p.ko_name : p.en_name);
  const date = nextPayment ? formatDate(new Date(`${nextPayment}T00:00:00`), language) : '';
  return (
    <Stack gap={4} maw={420} data-testid="workspace-plan">
      <Text size="sm" fw={500}>
        {plan ? nameOf(plan) : t('workspace.no_plan')}
      </Text>
      <Text size="sm" c="dimmed">
        {plan?.member_limit ? t('workspace.seats_of', { count: members, limit: plan.member_limit }) : t('workspace.seats', { count: members })}
      </Text>
      {status === 'cancelled' && nextPayment && <Text size="sm">{t('workspace.ends_on', { date })}</Text>}
      {status !== 'cancelled' && nextPlan && nextPayment && <Text size="sm">{t('workspace.changes_on', { plan: nameOf(nextPlan), date })}</Text>}
      <Anchor component={Link} to="/dashboard/plans" size="sm" data-testid="workspace-plans-link">
        {t('workspace.manage_plans')}
      </Anchor>
    </Stack>
  );
}
