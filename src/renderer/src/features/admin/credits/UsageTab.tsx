import { QueryError } from '../../../components/QueryError';
import { useState } from 'react';
import { Group, SegmentedControl, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { adminCreditsApi, type CreditUsageReport } from '../../../../../shared/api';
import { keepPreviousData } from '@tanstack/react-query';
import { useEndpointQuery } from '../../../api/endpointHooks';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { useCreditFormat } from '../../../components/useCreditFormat';
import { localizedName } from '../../../../../shared/domain/language';

const thisMonth = () => new Date().toISOString().slice(0, 7);

/** Tab 2: a month's LLM and image usage by group or by member (spec §3 Credit usage rows). */
export function UsageTab() {
  const { t } = useTranslation('adminCredits');
  const language = useResolvedLanguage();
  const format = useCreditFormat();
  const [month, setMonth] = useState(thisMonth);
  const [groupBy, setGroupBy] = useState<'group' | 'member'>('group');
  const validMonth = /^\d{4}-\d{2}$/.test(month);
  const report = useEndpointQuery(
    adminCreditsApi.getCreditUsage,
    { query: { month: validMonth ? month : thisMonth(), group_by: groupBy } },
    { placeholderData: keepPreviousData },
  );
  const who = (row: Pick<CreditUsageReport['llm'][number], 'ko_name' | 'en_name'>) =>
    groupBy === 'member'
      ? (row.ko_name ?? t('usage.unknown'))
      : localizedName({ ko_name: row.ko_name ?? '', en_name: row.en_name ?? '' }, language) || t('usage.unknown');

  return (
    <Stack gap="lg">
      <Group gap="md" align="flex-end" wrap="wrap">
        <TextInput type="month" label={t('usage.month')} value={month} onChange={(event) => setMonth(event.currentTarget.value)} />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="usage-group-by">
            {t('usage.group_by')}
          </Text>
          <SegmentedControl
            aria-labelledby="usage-group-by"
            value={groupBy}
            onChange={(value) => setGroupBy(value as 'group' | 'member')}
            data={[
              { value: 'group', label: t('usage.by_group') },
              { value: 'member', label: t('usage.by_member') },
            ]}
          />
        </Stack>
      </Group>
      {report.isLoading ? (
        <Skeleton h={200} />
      ) : !report.data ? (
        <QueryError query={report} endpoint={adminCreditsApi.getCreditUsage} />
      ) : (
        <>
          <Stack gap="xs">
            <Title order={2} size="h4">
              {t('usage.llm')}
            </Title>
            {report.data.llm.length === 0 ? (
              <Text c="dimmed">{t('usage.empty')}</Text>
            ) : (
              <Table.ScrollContainer minWidth={900}>
                <Table striped data-testid="usage-llm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{groupBy === 'member' ? t('usage.member') : t('usage.group')}</Table.Th>
                      <Table.Th>{t('usage.model')}</Table.Th>
                      <Table.Th ta="right">{t('usage.messages')}</Table.Th>
                      <Table.Th ta="right">{t('usage.input_tokens')}</Table.Th>
                      <Table.Th ta="right">{t('usage.input_credits')}</Table.Th>
                      <Table.Th ta="right">{t('usage.output_tokens')}</Table.Th>
                      <Table.Th ta="right">{t('usage.output_credits')}</Table.Th>
                      <Table.Th ta="right">{t('usage.web_searches')}</Table.Th>
                      <Table.Th ta="right">{t('usage.web_search_credits')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {report.data.llm.map((row) => (
                      <Table.Tr key={`${row.key_id}-${row.model_name}`}>
                        <Table.Td>
                          <Text size="sm">{who(row)}</Text>
                          {groupBy === 'member' && row.en_name && (
                            <Text size="xs" c="dimmed">
                              {row.en_name}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>{row.model_name}</Table.Td>
                        <Table.Td ta="right">{format.count(row.messages)}</Table.Td>
                        <Table.Td ta="right">{format.count(row.input_tokens)}</Table.Td>
                        <Table.Td ta="right">{format.credits(row.input_credits)}</Table.Td>
                        <Table.Td ta="right">{format.count(row.output_tokens)}</Table.Td>
                        <Table.Td ta="right">{format.credits(row.output_credits)}</Table.Td>
                        <Table.Td ta="right">{format.count(row.web_search_count)}</Table.Td>
                        <Table.Td ta="right">{format.credits(row.web_search_credits)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
          <Stack gap="xs">
            <Title order={2} size="h4">
              {t('usage.image')}
            </Title>
            {report.data.image.length === 0 ? (
              <Text c="dimmed">{t('usage.empty')}</Text>
            ) : (
              <Table.ScrollContainer minWidth={480}>
                <Table striped data-testid="usage-image">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{groupBy === 'member' ? t('usage.member') : t('usage.group')}</Table.Th>
                      <Table.Th>{t('usage.model')}</Table.Th>
                      <Table.Th ta="right">{t('usage.images')}</Table.Th>
                      <Table.Th ta="right">{t('usage.credits')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {report.data.image.map((row) => (
                      <Table.Tr key={`${row.key_id}-${row.model_name}`}>
                        <Table.Td>{who(row)}</Table.Td>
                        <Table.Td>{row.model_name}</Table.Td>
                        <Table.Td ta="right">{format.count(row.count)}</Table.Td>
                        <Table.Td ta="right">{format.credits(row.credits)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        </>
      )}
    </Stack>
  );
}
