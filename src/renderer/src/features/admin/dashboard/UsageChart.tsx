import { Stack, Text } from '@mantine/core';
import type { DashboardUsage } from '../../../../../shared/api';

export type UsageMetric = 'messages' | 'active_users' | 'credits' | 'new_members';

interface UsageChartProps {
  months: DashboardUsage['months'];
  metric: UsageMetric;
  title: string;
  format: (value: number) => string;
}

const HEIGHT = 160;

/**
 * One metric per month as bars (an SVG of our own: a chart library would cost more than the whole
 * first screen). Loaded lazily with the dashboard; every bar has its value as text for screen readers.
 */
export default function UsageChart({ months, metric, title, format }: UsageChartProps) {
  const max = Math.max(1, ...months.map((month) => month[metric]));
  const barWidth = 100 / Math.max(months.length, 1);
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm" id={`chart-${metric}`}>
        {title}
      </Text>
      <svg role="img" aria-labelledby={`chart-${metric}`} viewBox={`0 0 100 ${HEIGHT / 4}`} preserveAspectRatio="none" width="100%" height={HEIGHT} data-testid={`chart-${metric}`}>
        <line x1={0} x2={100} y1={HEIGHT / 4} y2={HEIGHT / 4} stroke="var(--mantine-color-gray-4)" strokeWidth={0.5} vectorEffect="non-scaling-stroke" />
        {months.map((month, index) => {
          const height = (month[metric] / max) * (HEIGHT / 4 - 1);
          return (
            <rect key={month.month} x={index * barWidth + barWidth * 0.15} width={barWidth * 0.7} y={HEIGHT / 4 - height} height={height} fill="var(--mantine-color-indigo-6)">
              <title>{`${month.month}: ${format(month[metric])}`}</title>
            </rect>
          );
        })}
      </svg>
      <div style={{ display: 'flex' }} aria-hidden>
        {months.map((month) => (
          <Text key={month.month} size="xs" c="dimmed" ta="center" style={{ flex: 1, minWidth: 0 }} truncate>
            {month.month.slice(2)}
          </Text>
        ))}
      </div>
    </Stack>
  );
}
