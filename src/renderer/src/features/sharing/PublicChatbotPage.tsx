import { useCallback, useMemo, useState } from 'react';
import { Avatar, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { isApiError, publicSessionsApi, type PublicChatbot } from '../../../../shared/api';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { PUBLIC_CHATBOT_ROUTE } from '../../../../shared/domain/sharing';
import { useEndpointQuery } from '../../api/endpointHooks';
import { usePublicSessionHistory } from './publicHistory';
import { MAIN_CONTENT_ID } from '../../components/mainContent';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { Composer } from '../chat/Composer';
import { historyBesideRun, useOlderPages } from '../chat/history';
import type { ChatbotFace } from '../chat/Messages';
import { visitorModesBody } from '../chat/modes/modesStore';
import { useWebSearchStore } from '../sources/webSearchStore';
import { ShareLinkDialog } from '../chat/ShareDialog';
import { useLinkWorkspace } from './useLinkWorkspace';
import { useVisitorRun } from './useVisitorRun';
import { PublicNotFound } from './PublicNotFound';
import { PublicHeader } from './PublicHeader';
import { PublicThread } from './PublicThread';
import classes from './sharing.module.css';

/** The key features in the visitor's language (the other one when empty). */
const keyFeatures = (chatbot: PublicChatbot, language: string) =>
  (language === 'ko' ? chatbot.ko_key_features || chatbot.en_key_features : chatbot.en_key_features || chatbot.ko_key_features).trim();

/** Who the chatbot is, before the first message: picture, name, creator, key features, categories. */
function ChatbotIntro({ chatbot, signedIn }: { chatbot: PublicChatbot; signedIn: boolean }) {
  const { t } = useTranslation('sharing');
  const language = useResolvedLanguage();
  const name = chatbotName(chatbot, language);
  const features = keyFeatures(chatbot, language);
  return (
    <Stack align="center" gap="sm" py={48} px="md" maw={560} mx="auto" ta="center" data-testid="public-chatbot-intro">
      <Avatar src={chatbot.profile_image_url} alt="" size={72} radius="xl" color="indigo">
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      <Title order={2} fz="h3">
        {name}
      </Title>
      {features && (
        <Text c="dimmed" style={{ whiteSpace: 'pre-line' }}>
          {features}
        </Text>
      )}
      {chatbot.categories.length > 0 && (
        <Group gap={6} justify="center">
          {chatbot.categories.map((category) => (
            <Badge key={category.id} variant="light" color="gray">
              {chatbotName(category, language)}
            </Badge>
          ))}
        </Group>
      )}
      {signedIn ? (
        <>
          <Text size="sm">{t('chatbotPage.memberHint', { name })}</Text>
          <Button component={Link} to={`/dashboard/chat/${chatbot.id}`} data-testid="public-chatbot-open-workspace">
            {t('chatbotPage.openInWorkspace')}
          </Button>
        </>
      ) : (
        <Text size="sm">{t('chatbotPage.hint', { name })}</Text>
      )}
    </Stack>
  );
}

/**
 * A public chatbot's own page (spec §6 public paths, §4 public chat), reached by its hash id or
 * the custom link its author set in the Studio: a signed-out visitor sees who it is and chats with
 * it. The first answer gives the chat a session, whose id joins the address (`/{sessionHash}`) so
 * the chat can be reopened and shared; "New chat" starts another, the old one stays at its link.
 * A signed-in member is sent to their own chat instead.
 */
export default function PublicChatbotPage() {
  const { hash = '', sessionHash } = useParams();
  const { t } = useTranslation('sharing');
  const language = useResolvedLanguage();
  const navigate = useNavigate();
  const { member, ready } = useLinkWorkspace();
  // A chatbot that is not public answers 404: said at once, not retried.
  const chatbot = useEndpointQuery(publicSessionsApi.getPublicChatbot, { params: { hash } }, { enabled: ready, retry: false });
  const history = usePublicSessionHistory(sessionHash ?? '', ready && sessionHash !== undefined);
  const [shareOpen, setShareOpen] = useState(false);

  const data = chatbot.data;
  const name = data ? chatbotName(data, language) : '';
  useDocumentTitle(data ? name : null);

  const sessionChatbot = useMemo(
    () =>
      data
        ? { id: data.id, hash_id: data.hash_id, en_name: data.en_name, ko_name: data.ko_name, profile_image_url: data.profile_image_url, is_public: true }
        : undefined,
    [data],
  );
  const pagePath = `${PUBLIC_CHATBOT_ROUTE}/${encodeURIComponent(hash)}`;
  const onSessionCreated = useCallback((created: string) => void navigate(`${pagePath}/${created}`), [navigate, pagePath]);
  const modes = useCallback(() => (data ? visitorModesBody(data.visitor_modes, useWebSearchStore.getState().on) : {}), [data]);
  const { run, runMeta, streaming, send, stop, reset } = useVisitorRun({ chatbot: sessionChatbot, sessionHash, modes, onSessionCreated });

  const face = useMemo<ChatbotFace>(() => ({ name, imageUrl: data?.profile_image_url ?? null }), [name, data]);
  const messages = useMemo(() => (sessionHash ? historyBesideRun(history.data, runMeta) : []), [sessionHash, history.data, runMeta]);
  const olderPages = useOlderPages(history, { listed: sessionHash !== undefined });

  if (chatbot.isError && isApiError(chatbot.error) && chatbot.error.status === 404)
    return <PublicNotFound title={t('chatbotPage.notFound')} hint={t('chatbotPage.notFoundHint')} testId="public-chatbot-missing" />;

  const startNew = () => {
    reset();
    void navigate(pagePath);
  };

  const body = (
    <PublicThread
      error={chatbot.isError || (history.isError && !history.data) ? (chatbot.error ?? history.error) : null}
      loading={!data || (Boolean(sessionHash) && history.isPending)}
      messages={messages}
      run={run}
      face={face}
      {...olderPages}
      empty={data ? <ChatbotIntro chatbot={data} signedIn={member !== null} /> : null}
    />
  );

  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.publicPage} data-testid="public-chatbot-page">
      <PublicHeader
        face={face}
        title={name}
        titleTestId="public-chatbot-name"
        subtitle={
          data?.creator_name && (
            <Text size="xs" c="dimmed" data-testid="public-chatbot-creator">
              {t('chatbotPage.by', { name: data.creator_name })}
            </Text>
          )
        }
        onShare={sessionHash ? () => setShareOpen(true) : undefined}
        newChat={sessionHash ? { label: t('public.newChat'), onClick: startNew, testId: 'public-chatbot-new-chat' } : undefined}
      />
      {body}
      {data && member === null && (
        <Composer onSend={send} onStop={stop} streaming={streaming} conversationKey={sessionHash ?? 'fresh'} visitor visitorModes={data.visitor_modes} />
      )}
      {sessionHash && <ShareLinkDialog hashId={sessionHash} opened={shareOpen} onClose={() => setShareOpen(false)} />}
    </main>
  );
}
