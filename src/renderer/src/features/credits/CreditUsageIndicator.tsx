import { Anchor, Box, Group, Progress, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { creditWarning, displayCredits, shownCreditFigures } from '../../../../shared/domain/credits';
import { useMemberUsage } from '../../api/credits';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { useUserSession } from '../../stores/userSession';

/** The member's credits page, which the indicator's label opens. */
export const CREDITS_PATH = '/dashboard/credits';

const barColor = { depleted: 'red', almost_depleted: 'orange', used_80: 'yellow', used_50: 'indigo' } as const;

/** Credits left this month, in the navigation footer and My page (its label opens the credits page); nothing when no limit applies. */
export function CreditUsageIndicator() {
  const { t } = useTranslation('credits');
  const language = useResolvedLanguage();
  const memberId = useUserSession((state) => state.member?.id);
  const usage = useMemberUsage(memberId);
  if (!usage.data || usage.data.quota === null || usage.data.remaining === null) return null;
  const percent = Math.min(100, displayCredits(usage.data.percentage_used ?? 0));
  const warning = creditWarning(usage.data);
  const shown = shownCreditFigures(usage.data);
  const figures = {
    remaining: (shown.remaining ?? 0).toLocaleString(language),
    used: shown.used.toLocaleString(language),
    quota: displayCredits(usage.data.quota).toLocaleString(language),
    percent,
  };
  return (
    <Box px={6} py={4} data-testid="credit-usage">
      <Group justify="space-between" gap={6} wrap="nowrap">
        <Anchor component={Link} to={CREDITS_PATH} size="xs" fw={600} data-testid="credit-usage-link">
          {t('indicator.label')}
        </Anchor>
        <Text size="xs" c={warning === 'depleted' ? 'red.8' : 'dimmed'}>
          {t('indicator.left', figures)}
        </Text>
      </Group>
      <Progress value={percent} size="sm" mt={4} color={warning ? barColor[warning] : 'indigo'} aria-label={t('indicator.aria', figures)} />
    </Box>
  );
}
