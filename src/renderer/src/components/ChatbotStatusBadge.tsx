import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChatbotStatus } from '../../../shared/api';

const COLORS: Record<ChatbotStatus, string> = { draft: 'gray', private: 'dark', shared: 'blue', pending: 'yellow', public: 'teal', rejected: 'red' };
/** Text dark enough on each light background (WCAG AA at badge size); yellow has no such shade of its own. */
const TEXT: Record<ChatbotStatus, string> = { draft: 'gray.9', private: 'dark.7', shared: 'blue.9', pending: 'dark.7', public: 'teal.9', rejected: 'red.9' };

/** Where a chatbot stands (spec §4), as derived by the server. */
export function ChatbotStatusBadge({ status }: { status: ChatbotStatus }) {
  const { t } = useTranslation('studio');
  return (
    <Badge color={COLORS[status]} c={TEXT[status]} variant="light" data-testid="chatbot-status" data-status={status}>
      {t(`status.${status}`)}
    </Badge>
  );
}
