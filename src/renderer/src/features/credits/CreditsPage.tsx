import { QueryError } from '../../components/QueryError';
import { Alert, Button, Card, Group, Progress, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { type CreditWarning, creditWarning, shownCreditFigures } from '../../../../shared/domain/credits';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../shared/domain/pagination';
import { creditsApi, type MemberUsage } from '../../../../shared/api';
import { useMemberUsage } from '../../api/credits';
import { useEndpointQuery } from '../../api/endpointHooks';
import { PageFrame } from '../../components/PageFrame';
import { useListState } from '../../components/list/useListState';
import { useUserSession } from '../../stores/userSession';
import { CreditEntriesTable } from '../../components/CreditEntriesTable';
import { useCreditFormat } from '../../components/useCreditFormat';
import classes from './credits.module.css';

/** Where an individual buys more (the billing pages) and what an organisation member is told instead. */
export const PLANS_PATH = '/dashboard/plans';

const warningColor: Record<CreditWarning, string> = { used_50: 'indigo', used_80: 'yellow', almost_depleted: 'orange', depleted: 'red' };

/** This period's usage with its warning state and the upgrade prompt. */
function UsageCard({ usage, individual }: { usage: MemberUsage; individual: boolean }) {
  const { t } = useTranslation(['creditsPage', 'credits']);
  const format = useCreditFormat();
  const warning = creditWarning(usage);
  const shown = shownCreditFigures(usage);
  const percent = Math.min(100, Math.floor(usage.percentage_used ?? 0));
  const figure = (label: string, value: string, testId: string) => (
    <Stack gap={0}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
  return (
    <Card withBorder radius="md" padding="lg" className={classes.usage} data-testid="credits-usage">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t('usage.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('usage.period', { start: usage.period_start, end: usage.period_end })}
          </Text>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          {figure(t('usage.used'), format.credits(shown.used), 'credits-used')}
          {figure(t('usage.quota'), usage.quota === null ? t('usage.unlimited') : format.credits(usage.quota), 'credits-quota')}
          {figure(t('usage.remaining'), shown.remaining === null ? t('usage.unlimited') : format.credits(shown.remaining), 'credits-remaining')}
        </SimpleGrid>
        {usage.quota !== null && (
          <Progress value={percent} size="lg" color={warning ? warningColor[warning] : 'indigo'} aria-label={t('usage.progress', { percent })} />
        )}
        {warning && (
          <Alert color={warningColor[warning]} title={t(`state.${warning}`)} data-testid="credits-state" data-state={warning}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                {warning === 'depleted' && usage.depletion_kind ? t(`credits:depleted.${usage.depletion_kind}`) : t('usage.percent_used', { percent })}
              </Text>
              {individual ? (
                <Button component={Link} to={PLANS_PATH} size="xs">
                  {t('upgrade.plans')}
                </Button>
              ) : (
                <Text size="sm">{t('credits:contact.admin')}</Text>
              )}
            </Stack>
          </Alert>
        )}
      </Stack>
    </Card>
  );
}

/** Route /dashboard/credits: this month's credits and the credit entries of the pool. */
export default function CreditsPage() {
  const { t } = useTranslation('creditsPage');
  const member = useUserSession((state) => state.member);
  const usage = useMemberUsage(member?.id);
  const listState = useListState({ size: DEFAULT_LIST_PAGE_SIZE });
  const entries = useEndpointQuery(creditsApi.listCredits, { query: { page: listState.page, size: listState.size } }, { placeholderData: keepPreviousData });
  return (
    <PageFrame title={t('title')} description={t('description')}>
      <Stack gap="xl">
        {usage.isLoading ? (
          <Skeleton h={180} />
        ) : usage.isError || !usage.data ? (
          <QueryError query={usage} endpoint={creditsApi.getMemberUsage} />
        ) : (
          <UsageCard usage={usage.data} individual={member?.member_type === 'individual'} />
        )}
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('entries.title')}
          </Title>
          {entries.isError ? (
            <QueryError query={entries} endpoint={creditsApi.listCredits} />
          ) : (
            <CreditEntriesTable data={entries.data} isLoading={entries.isLoading} list={listState} caption={t('entries.title')} />
          )}
        </Stack>
      </Stack>
    </PageFrame>
  );
}
