import { Alert, Avatar, Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { chatbotsApi, type Chatbot } from '../../../../shared/api';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { recentChatbotsKey } from '../../api/chatbots';
import { useEndpointMutation } from '../../api/endpointHooks';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { useModelDetails } from '../../components/useModelDetails';
import { keyFeatures } from './ChatbotCard';
import { localizedName } from '../../../../shared/domain/language';

/**
 * A Store chatbot in full: key features, model details, categories, creator; Start chat keeps it
 * among the recent ones. A chatbot whose model the member's group may not use says why, and cannot be started.
 */
export function ChatbotDetail({ chatbot, onClose }: { chatbot: Chatbot | null; onClose: () => void }) {
  const { t } = useTranslation(['store', 'chat']);
  const language = useResolvedLanguage();
  const modelDetails = useModelDetails();
  const navigate = useNavigate();
  // The chat works even when remembering fails; the recents are a convenience.
  const remember = useEndpointMutation(chatbotsApi.rememberChatbot, { errorToast: false, invalidates: () => [recentChatbotsKey] });
  const name = chatbot ? chatbotName(chatbot, language) : '';
  const start = async () => {
    if (!chatbot) return;
    await remember.mutateAsync({ params: { id: chatbot.id } }).catch(() => undefined);
    void navigate(`/dashboard/chat/${chatbot.id}`);
  };
  return (
    <Modal opened={chatbot !== null} onClose={onClose} title={name} size="lg" closeButtonProps={{ 'aria-label': t('close') }}>
      {chatbot && (
        <Stack gap="md" data-testid="store-detail">
          <Group gap="md" wrap="nowrap" align="flex-start">
            <Avatar src={chatbot.profile_image_url} alt="" radius="md" size={64} color="indigo">
              {name.slice(0, 1)}
            </Avatar>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {keyFeatures(chatbot, language) || t('no_features')}
            </Text>
          </Group>
          <Group gap={6}>
            {chatbot.categories.map((category) => (
              <Badge key={category.id} variant="light" color="gray" c="gray.9">
                {localizedName(category, language)}
              </Badge>
            ))}
          </Group>
          <Stack gap={2}>
            <Text size="xs" fw={600} c="dimmed">
              {t('model')}
            </Text>
            <Text size="sm" data-testid="store-model">
              {[chatbot.llm_model.display_name, ...modelDetails(chatbot.llm_model)].join(' · ')}
            </Text>
          </Stack>
          <Text size="sm" c="dimmed">
            {t('by', { name: chatbot.creator?.name ?? t('workspace') })} · {t('messages', { count: chatbot.message_count })}
          </Text>
          {!chatbot.llm_model.is_available && (
            <Alert variant="light" color="gray" id="model-unavailable-reason" data-testid="model-unavailable">
              <Text size="sm">{t('chat:modelUnavailable.reason')}</Text>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button
              onClick={() => void start()}
              disabled={!chatbot.llm_model.is_available}
              aria-describedby={chatbot.llm_model.is_available ? undefined : 'model-unavailable-reason'}
              data-autofocus
              data-testid="start-chat"
            >
              {t('start_chat')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
