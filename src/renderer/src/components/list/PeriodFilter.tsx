import { Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PERIOD_CHOICES, type ListPeriod, type PeriodChoice, type PeriodFilters } from './dayRange';
import type { ListState } from './useListState';

const ANY_TIME = 'any' as const;

interface PeriodFilterProps {
  list: Pick<ListState<PeriodFilters>, 'setFilters'>;
  /** `listPeriod(list.filters)`, which the page also sends. */
  period: ListPeriod;
}

/**
 * A list's period filter (`PERIOD_FILTERS` in its URL): Any time, a preset counted back from today,
 * or a custom range of days, whose two date fields show only then. Choosing Custom range starts
 * from the days of the preset it replaces, so "Last 7 days" can be widened by a day
 * (docs/decisions/0082-period-presets.md).
 */
export function PeriodFilter({ list, period }: PeriodFilterProps) {
  const { t } = useTranslation('common');
  const choose = (choice: PeriodChoice | null) => {
    if (choice === null) list.setFilters({ period: null, from: null, to: null });
    else if (choice === 'custom') list.setFilters({ period: 'custom', from: period.from || null, to: period.to || null });
    else list.setFilters({ period: choice, from: null, to: null });
  };
  return (
    <>
      {/* "Any time" is an option rather than a clear button, which Mantine keeps from the keyboard. */}
      <Select
        label={t('period.label')}
        data={[ANY_TIME, ...PERIOD_CHOICES].map((choice) => ({ value: choice, label: t(`period.${choice}`) }))}
        value={period.choice ?? ANY_TIME}
        onChange={(value) => choose(value === ANY_TIME ? null : (value as PeriodChoice))}
        allowDeselect={false}
        w={{ base: '100%', sm: 170 }}
      />
      {period.choice === 'custom' && (
        <>
          <TextInput
            type="date"
            label={t('period.from')}
            value={period.from}
            onChange={(event) => list.setFilters({ period: 'custom', from: event.currentTarget.value })}
            w={{ base: '100%', xs: 170 }}
          />
          <TextInput
            type="date"
            label={t('period.to')}
            value={period.to}
            onChange={(event) => list.setFilters({ period: 'custom', to: event.currentTarget.value })}
            error={period.invalid ? t('period.invalid') : undefined}
            w={{ base: '100%', xs: 170 }}
          />
        </>
      )}
    </>
  );
}
