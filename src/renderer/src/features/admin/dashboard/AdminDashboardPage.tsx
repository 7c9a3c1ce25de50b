import { Suspense, lazy, useState } from 'react';
import { Alert, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { adminDashboardsApi, type DashboardUsage } from '../../../../../shared/api';
import { errorMessageKey } from '../../../api/errorMessages';
import { keepPreviousData } from '@tanstack/react-query';
import { useEndpointQuery } from '../../../api/endpointHooks';
import { useCreditFormat } from '../../../components/useCreditFormat';
import { AdminPageFrame } from '../AdminPageFrame';
import type { UsageMetric } from './UsageChart';
import { messageText } from '../../../i18n/keys';

const UsageChart = lazy(() => import('./UsageChart'));

/** `YYYY-MM` of a date `offset` months from now (UTC, like the server's periods). */
function monthFrom(offset: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 7);
}

const METRICS: UsageMetric[] = ['messages', 'active_users', 'credits', 'new_members'];

/** The months as CSV, a header row then one row per month. */
export function usageCsv(months: DashboardUsage['months']): string {
  const header = ['month', ...METRICS].join(',');
  return [header, ...months.map((month) => [month.month, ...METRICS.map((metric) => month[metric])].join(','))].join('\n');
}

function downloadCsv(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  link.click();
  URL.revokeObjectURL(url);
}

/** Route /admin/dashboard: the cards of this month and the monthly charts of a range. */
export default function AdminDashboardPage() {
  const { t } = useTranslation('adminDashboard');
  const format = useCreditFormat();
  const cards = useEndpointQuery(adminDashboardsApi.getDashboard, {});
  const [range, setRange] = useState({ start: monthFrom(-5), end: monthFrom(0) });
  const validRange = /^\d{4}-\d{2}$/.test(range.start) && /^\d{4}-\d{2}$/.test(range.end) && range.start <= range.end;
  const usage = useEndpointQuery(
    adminDashboardsApi.getDashboardUsage,
    { query: { start_month: range.start, end_month: range.end } },
    { placeholderData: keepPreviousData },
  );
  const card = (label: string, value: number | undefined, testId: string) => (
    <Card withBorder radius="md" padding="lg" key={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {value === undefined ? (
        <Skeleton h={28} mt={4} />
      ) : (
        <Text fw={700} fz={28} data-testid={testId}>
          {format.count(value)}
        </Text>
      )}
    </Card>
  );
  return (
    <AdminPageFrame title={t('title')} description={t('description')}>
      <Stack gap="xl">
        {cards.isError ? (
          // Spec §8 "Dashboard cards 403" has its own message; other failures the catalogue's.
          <Alert color="red" data-testid="dashboard-cards-error">
            {messageText(errorMessageKey(cards.error, adminDashboardsApi.getDashboard))}
          </Alert>
        ) : (
          <SimpleGrid cols={{ base: 2, md: 5 }}>
            {card(t('cards.members'), cards.data?.member_count, 'card-members')}
            {card(t('cards.active_users'), cards.data?.monthly_active_users, 'card-active-users')}
            {card(t('cards.messages'), cards.data?.monthly_messages, 'card-messages')}
            {card(t('cards.public_chatbots'), cards.data?.public_chatbot_count, 'card-public-chatbots')}
            {card(t('cards.private_chatbots'), cards.data?.private_chatbot_count, 'card-private-chatbots')}
          </SimpleGrid>
        )}
        <Card withBorder radius="md" padding="lg">
          <Stack gap="md">
            <Group justify="space-between" align="flex-end" wrap="wrap">
              <Title order={2} size="h4">
                {t('usage.title')}
              </Title>
              <Group gap="sm" align="flex-end" wrap="wrap">
                <TextInput
                  type="month"
                  label={t('usage.start')}
                  value={range.start}
                  onChange={(event) => setRange({ ...range, start: event.currentTarget.value })}
                />
                <TextInput type="month" label={t('usage.end')} value={range.end} onChange={(event) => setRange({ ...range, end: event.currentTarget.value })} />
                <Button
                  variant="default"
                  disabled={!usage.data}
                  onClick={() => usage.data && downloadCsv(`usage-${range.start}-${range.end}.csv`, usageCsv(usage.data.months))}
                >
                  {t('usage.csv')}
                </Button>
              </Group>
            </Group>
            {!validRange || usage.isError ? (
              <Alert color="yellow">{t('usage.invalid_range')}</Alert>
            ) : !usage.data ? (
              <Skeleton h={200} />
            ) : (
              <Suspense fallback={<Skeleton h={200} />}>
                <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
                  {METRICS.map((metric) => (
                    <UsageChart
                      key={metric}
                      months={usage.data.months}
                      metric={metric}
                      title={t(`usage.metrics.${metric}`)}
                      format={metric === 'credits' ? format.credits : format.count}
                    />
                  ))}
                </SimpleGrid>
              </Suspense>
            )}
          </Stack>
        </Card>
      </Stack>
    </AdminPageFrame>
  );
}
