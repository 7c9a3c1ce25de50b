import { useEffect, useState } from 'react';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Task } from '../../../../../shared/api/tasks';

/** m:ss (or h:mm:ss): the same in every language. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Seconds since `since`, ticking once a second while mounted. */
function useElapsedSeconds(since: string): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, (now - new Date(since).getTime()) / 1000);
}

/**
 * A running task's progress bar with elapsed and estimated remaining time (spec §4 "Member export:
 * progress with elapsed and estimated time"); the estimate assumes the rate so far holds.
 */
export function TaskProgress({ task, label, unitKey }: { task: Task; label: string; unitKey: 'export.progress' | 'upload.progress' }) {
  const { t } = useTranslation('memberTransfer');
  const elapsed = useElapsedSeconds(task.created_at);
  const processed = task.progress?.processed ?? 0;
  const total = task.progress?.total ?? 0;
  const percentage = total > 0 ? Math.min(100, Math.floor((processed / total) * 100)) : 0;
  const remaining = processed > 0 && total > processed ? (elapsed / processed) * (total - processed) : null;
  return (
    <Stack gap={6} data-testid="task-progress">
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Progress value={percentage} animated aria-label={label} aria-valuetext={`${percentage}%`} />
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          {t(unitKey, { processed: processed.toLocaleString(), total: total.toLocaleString() })}
        </Text>
        <Text size="xs" c="dimmed">
          {`${t('elapsed', { time: formatDuration(elapsed) })} · ${remaining === null ? t('estimating') : t('remaining', { time: formatDuration(remaining) })}`}
        </Text>
      </Group>
    </Stack>
  );
}
