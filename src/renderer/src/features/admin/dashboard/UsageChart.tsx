import { useRef, useState, type KeyboardEvent } from 'react';
import { Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DashboardUsage } from '../../../../../shared/api';
import { formatMonth } from '../../../i18n/formatDate';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import classes from './usageChart.module.css';

export type UsageMetric = 'messages' | 'active_users' | 'credits' | 'new_members';

interface UsageChartProps {
  months: DashboardUsage['months'];
  metric: UsageMetric;
  title: string;
  format: (value: number) => string;
}

/** Month labels under the bars: at most this many, so they stay readable on a phone. */
const MAX_MONTH_LABELS = 6;

/**
 * The value axis: a round step (1, 2 or 5 times a power of ten, at least 1) giving about three
 * intervals, and the ticks from 0 up to the first one at or above the largest value.
 */
export function valueTicks(max: number): number[] {
  const rough = Math.max(max / 3, 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough)!;
  const intervals = Math.max(1, Math.ceil(max / step));
  return Array.from({ length: intervals + 1 }, (_, index) => index * step);
}

/**
 * One metric per month as bars (our own markup: a chart library would cost more than the whole
 * first screen). Loaded lazily with the dashboard. Each month is one column that shows its value in
 * a tooltip on hover and on focus, and is named by it for screen readers; the chart is one Tab stop
 * whose arrow keys move between months (the latest first).
 */
export default function UsageChart({ months, metric, title, format }: UsageChartProps) {
  const { t } = useTranslation('adminDashboard');
  const language = useResolvedLanguage();
  const [chosen, setCurrent] = useState(months.length - 1);
  // A shorter range may come in after a month further right was chosen.
  const current = Math.min(chosen, months.length - 1);
  const columns = useRef<(HTMLDivElement | null)[]>([]);
  const ticks = valueTicks(Math.max(0, ...months.map((month) => month[metric])));
  const top = ticks[ticks.length - 1]!;
  const labelEvery = Math.ceil(months.length / MAX_MONTH_LABELS);
  const titleId = `chart-${metric}`;

  const onKeyDown = (event: KeyboardEvent) => {
    const last = months.length - 1;
    const targets: Record<string, number> = { ArrowRight: Math.min(current + 1, last), ArrowLeft: Math.max(current - 1, 0), Home: 0, End: last };
    const target = targets[event.key];
    if (target === undefined) return;
    event.preventDefault();
    setCurrent(target);
    columns.current[target]?.focus();
  };

  return (
    <Stack gap={4}>
      <Text fw={600} size="sm" id={titleId}>
        {title}
      </Text>
      <div className={classes.chart}>
        <div className={classes.yAxis} aria-hidden>
          {ticks.map((tick) => (
            <span key={tick} className={classes.tick} style={{ bottom: `${(tick / top) * 100}%` }}>
              {format(tick)}
            </span>
          ))}
        </div>
        <div role="group" aria-labelledby={titleId} aria-describedby={`${titleId}-hint`} className={classes.plot} onKeyDown={onKeyDown} data-testid={titleId}>
          <VisuallyHidden id={`${titleId}-hint`}>{t('usage.chart_hint')}</VisuallyHidden>
          {ticks.slice(1).map((tick) => (
            <span key={tick} className={classes.gridLine} style={{ bottom: `${(tick / top) * 100}%` }} aria-hidden />
          ))}
          {months.map((month, index) => {
            const value = t('usage.value', { month: formatMonth(month.month, language), value: format(month[metric]) });
            return (
              <Tooltip key={month.month} label={value} events={{ hover: true, focus: true, touch: true }} openDelay={0}>
                <div
                  ref={(element) => {
                    columns.current[index] = element;
                  }}
                  role="img"
                  aria-label={value}
                  tabIndex={index === current ? 0 : -1}
                  onFocus={() => setCurrent(index)}
                  className={classes.column}
                >
                  <div className={classes.bar} style={{ height: `${(month[metric] / top) * 100}%` }} />
                </div>
              </Tooltip>
            );
          })}
        </div>
        <div className={classes.xAxis} aria-hidden>
          {months.map((month, index) => {
            const labelled = index % labelEvery === 0;
            // The year under the first label and wherever it changes from the label before.
            const withYear = labelled && (index === 0 || months[index - labelEvery]!.month.slice(0, 4) !== month.month.slice(0, 4));
            return (
              <span key={month.month} className={classes.month}>
                {labelled ? formatMonth(month.month, language, 'short') : ''}
                <br />
                {withYear ? formatMonth(month.month, language, 'year') : ' '}
              </span>
            );
          })}
        </div>
      </div>
    </Stack>
  );
}
