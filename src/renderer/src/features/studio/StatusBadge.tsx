import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChatbotStatus } from '../../../../shared/api';

const COLORS: Record<ChatbotStatus, string> = { draft: 'gray', private: 'dark', shared: 'blue', pending: 'yellow', public: 'teal', rejected: 'red' };

/** Where a chatbot stands (spec §4), as derived by the server. */
export function StatusBadge({ status }: { status: ChatbotStatus }) {
  const { t } = useTranslation('studio');
  return (
    <Badge color={COLORS[status]} variant="light" data-testid="chatbot-status" data-status={status}>
      {t(`status.${status}`)}
    </Badge>
  );
}
