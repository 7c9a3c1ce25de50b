import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { PublicSession } from '../../../../shared/api';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { useUserSession } from '../../stores/userSession';
import { chatbotName } from '../../../../shared/domain/chatbots';

interface StartChatDialogProps {
  session: PublicSession;
  opened: boolean;
  onClose: () => void;
  /** A signed-out visitor of a public chatbot starts over on the public page. */
  onStartVisitorChat: () => void;
}

/**
 * The public page's start-new-chat dialog (spec §2). A signed-in member goes to their own chat
 * with the chatbot; a visitor chats on the page when the chatbot is public, or is asked to sign in
 * when it is not. Either way the shared chat stays reachable by its link (spec §4).
 */
export function StartChatDialog({ session, opened, onClose, onStartVisitorChat }: StartChatDialogProps) {
  const { t } = useTranslation('sharing');
  const language = useResolvedLanguage();
  const navigate = useNavigate();
  const member = useUserSession((state) => state.member);
  const name = chatbotName(session.chatbot, language);
  const memberChat = `/dashboard/chat/${session.chatbot.id}`;

  let text: string;
  let action: { label: string; run: () => void };
  if (member) {
    text = t('start.member', { name });
    action = { label: t('start.confirm'), run: () => void navigate(memberChat) };
  } else if (session.chatbot.is_public) {
    text = t('start.visitor', { name });
    action = { label: t('start.confirm'), run: onStartVisitorChat };
  } else {
    text = t('start.signIn', { name });
    action = { label: t('public.signIn'), run: () => void navigate('/auth', { state: { from: memberChat } }) };
  }

  return (
    <Modal opened={opened} onClose={onClose} title={t('start.title')} size="sm">
      <Text size="sm">{text}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('start.cancel')}
        </Button>
        <Button data-autofocus onClick={action.run} data-testid="start-chat-confirm">
          {action.label}
        </Button>
      </Group>
    </Modal>
  );
}
