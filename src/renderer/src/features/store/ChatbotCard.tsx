import { ActionIcon, Avatar, Badge, Card, Group, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Chatbot } from '../../../../shared/api';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import classes from './store.module.css';
import { localizedName } from '../../../../shared/domain/language';

/** Key features in the member's language, the other one when it is empty (as the name). */
export const keyFeatures = (chatbot: Chatbot, language: string) =>
  (language === 'ko' ? chatbot.ko_key_features || chatbot.en_key_features : chatbot.en_key_features || chatbot.ko_key_features).trim();

/** Marks a chatbot whose model the member's group may not use (the reason goes next to it). */
export function ModelUnavailableBadge() {
  const { t } = useTranslation('chat');
  return (
    <Badge size="xs" variant="outline" color="gray" c="gray.8" style={{ flexShrink: 0 }} data-testid="model-unavailable-badge">
      {t('modelUnavailable.badge')}
    </Badge>
  );
}

/**
 * A Store card: picture or initial, name, key features, creator and message count; opens the
 * detail. A chatbot the member cannot use is marked so, with the reason instead of its features.
 */
export function ChatbotCard({ chatbot, onOpen, onRemove }: { chatbot: Chatbot; onOpen: () => void; onRemove?: () => void }) {
  const { t } = useTranslation(['store', 'chat']);
  const language = useResolvedLanguage();
  const name = chatbotName(chatbot, language);
  return (
    <Card withBorder radius="md" padding="md" className={classes.card} data-testid="store-card" data-name={chatbot.en_name}>
      <UnstyledButton onClick={onOpen} className={classes.cardButton}>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <Avatar src={chatbot.profile_image_url} alt="" radius="md" size={44} color="indigo" aria-hidden>
            {name.slice(0, 1)}
          </Avatar>
          <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
            <Group gap={6} wrap="nowrap">
              <Text fw={600} truncate="end">
                {name}
              </Text>
              {!chatbot.llm_model.is_available && <ModelUnavailableBadge />}
            </Group>
            <Text size="sm" c="dimmed" lineClamp={2}>
              {chatbot.llm_model.is_available ? keyFeatures(chatbot, language) || t('no_features') : t('chat:modelUnavailable.reason')}
            </Text>
            <Group gap={6} mt={4}>
              {chatbot.categories.slice(0, 2).map((category) => (
                <Badge key={category.id} size="xs" variant="light" color="gray" c="gray.9">
                  {localizedName(category, language)}
                </Badge>
              ))}
              <Text size="xs" c="dimmed">
                {t('by', { name: chatbot.creator?.name ?? t('workspace') })} · {t('messages', { count: chatbot.message_count })}
              </Text>
            </Group>
          </Stack>
        </Group>
      </UnstyledButton>
      {onRemove && (
        <Tooltip label={t('remove_recent')}>
          <ActionIcon className={classes.remove} variant="subtle" color="gray" size="sm" onClick={onRemove} aria-label={t('remove_recent_named', { name })}>
            <svg width={14} height={14} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
              <path d="M18 6 6 18M6 6l12 12" />
            </svg>
          </ActionIcon>
        </Tooltip>
      )}
    </Card>
  );
}
