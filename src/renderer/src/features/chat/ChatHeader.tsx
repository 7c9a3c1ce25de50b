import { Fragment, useId, useState } from 'react';
import { useForm } from '@mantine/form';
import { ActionIcon, Avatar, Button, Group, Modal, Skeleton, Stack, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { sessionsApi, type Chatbot, type Session } from '../../../../shared/api';
import { endpointKey, useEndpointMutation } from '../../api/endpointHooks';
import { IconChevron, IconEdit, IconPlus, IconTrash } from '../../components/icons';
import { useBelowBreakpoint } from '../../components/useBelowBreakpoint';
import { showToast } from '../../components/toast';
import { bodySchemaOf, formErrorText, zodResolver } from '../../components/forms/zodResolver';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { DeleteSessionDialog } from '../dashboard/DeleteSessionDialog';
import { useDeleteSession } from '../dashboard/useDeleteSession';
import { ShareSessionButton } from './ShareDialog';
import { ExportSessionMenu } from './ExportMenu';
import { useModelDetails } from '../../components/useModelDetails';
import { ChatbotSwitcher } from './ChatbotSwitcher';
import { chatbotName } from '../../../../shared/domain/chatbots';
import classes from './chat.module.css';

/**
 * Chatbot name, then the model: name and details. Where the header is narrow the details wait
 * behind the name, a button that shows and hides them, so the header keeps to two lines.
 */
function ChatbotLine({ chatbot }: { chatbot: Chatbot }) {
  const { t } = useTranslation('chat');
  const language = useResolvedLanguage();
  const modelDetails = useModelDetails();
  const compact = useBelowBreakpoint('laptop');
  const [detailsShown, setDetailsShown] = useState(false);
  const detailsId = useId();
  const name = chatbotName(chatbot, language);
  const details = [chatbot.llm_model.display_name, ...modelDetails(chatbot.llm_model)].map((detail, index) => (
    // Lines break between details, never in the middle of one (a date, a cost).
    <Fragment key={detail}>
      {compact && index === 0 ? '' : ' · '}
      <span style={{ whiteSpace: 'nowrap' }}>{detail}</span>
    </Fragment>
  ));
  if (!compact) {
    return (
      <Text size="xs" c="dimmed">
        <Text span inherit fw={600} c="var(--mantine-color-text)" data-testid="chatbot-name">
          {name}
        </Text>
        <span data-testid="model-details">{details}</span>
      </Text>
    );
  }
  return (
    <>
      <UnstyledButton
        className={classes.chatbotToggle}
        aria-expanded={detailsShown}
        aria-controls={detailsId}
        aria-label={`${name} · ${t('model.details')}`}
        onClick={() => setDetailsShown((shown) => !shown)}
        data-testid="model-details-toggle"
      >
        <Text span size="xs" fw={600} truncate data-testid="chatbot-name">
          {name}
        </Text>
        <IconChevron size={12} className={detailsShown ? classes.chevronOpen : undefined} />
      </UnstyledButton>
      <Text size="xs" c="dimmed" id={detailsId} hidden={!detailsShown} data-testid="model-details">
        {details}
      </Text>
    </>
  );
}

/** The title part of the session patch body, required here: the server's rules (trimmed, 1–200). */
const renameFormSchema = bodySchemaOf(sessionsApi.patchSession).pick({ title: true }).required();

/** The form is keyed per opening so it starts from the current title every time. */
function RenameForm({ session, onClose }: { session: Session; onClose: () => void }) {
  const { t } = useTranslation('chat');
  const queryClient = useQueryClient();
  const form = useForm({
    mode: 'controlled',
    initialValues: { title: session.title ?? '' },
    validate: zodResolver(renameFormSchema, { title: 'chat:session.titleRequired' }),
    validateInputOnChange: true,
    transformValues: (values) => renameFormSchema.parse(values),
  });
  const rename = useEndpointMutation(sessionsApi.patchSession, {
    invalidates: [sessionsApi.listSessions],
    onSuccess: (updated) => {
      queryClient.setQueryData(endpointKey(sessionsApi.getSession, { params: { hash: updated.hash_id } }), updated);
      showToast('success', t('session.renamed'));
      onClose();
    },
  });
  return (
    <form onSubmit={form.onSubmit(({ title }) => rename.mutate({ params: { hash: session.hash_id }, body: { title } }))}>
      <TextInput data-autofocus label={t('session.titleLabel')} maxLength={200} {...form.getInputProps('title')} error={formErrorText(form.errors.title)} />
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('session.cancel')}
        </Button>
        <Button type="submit" loading={rename.isPending} disabled={!form.isValid()}>
          {t('session.save')}
        </Button>
      </Group>
    </form>
  );
}

/**
 * Stays mounted while closed, so Mantine hands focus back to the rename button when it closes
 * (a dialog that unmounts on close leaves focus on <body>).
 */
function RenameDialog({ session, opened, formKey, onClose }: { session: Session | undefined; opened: boolean; formKey: number; onClose: () => void }) {
  const { t } = useTranslation('chat');
  return (
    <Modal opened={opened && session !== undefined} onClose={onClose} title={t('session.renameTitle')} size="sm">
      {session && <RenameForm key={formKey} session={session} onClose={onClose} />}
    </Modal>
  );
}

interface ChatHeaderProps {
  chatbot: Chatbot | undefined;
  session: Session | undefined;
  hasSession: boolean;
  onNewSession: () => void;
}

export function ChatHeader({ chatbot, session, hasSession, onNewSession }: ChatHeaderProps) {
  const { t } = useTranslation('chat');
  const language = useResolvedLanguage();
  const [rename, setRename] = useState({ opened: false, formKey: 0 });
  const [deleting, setDeleting] = useState<Session | null>(null);
  const deleteSession = useDeleteSession();
  const sessionTitle = hasSession ? session?.title || t('session.untitled') : t('session.new');
  useDocumentTitle(hasSession && !session ? null : sessionTitle);

  return (
    <header className={classes.header}>
      <Group justify="space-between" wrap="nowrap" gap="md">
        <Group gap="sm" wrap="nowrap" miw={0}>
          {chatbot ? (
            <Avatar src={chatbot.profile_image_url} alt="" radius="xl" color="indigo">
              {chatbotName(chatbot, language).slice(0, 1).toUpperCase()}
            </Avatar>
          ) : (
            <Skeleton circle height={38} />
          )}
          <Stack gap={0} miw={0}>
            <Group gap={6} wrap="nowrap" miw={0}>
              <Text component="h1" fw={650} fz="md" m={0} truncate data-testid="session-title">
                {sessionTitle}
              </Text>
              {hasSession && session && (
                <>
                  <Tooltip label={t('session.rename')}>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      size="sm"
                      aria-label={t('session.rename')}
                      onClick={() => setRename(({ formKey }) => ({ opened: true, formKey: formKey + 1 }))}
                    >
                      <IconEdit size={15} />
                    </ActionIcon>
                  </Tooltip>
                  <ShareSessionButton session={session} />
                  <ExportSessionMenu session={session} />
                  <Tooltip label={t('session.delete')}>
                    <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('session.delete')} onClick={() => setDeleting(session)}>
                      <IconTrash size={15} />
                    </ActionIcon>
                  </Tooltip>
                </>
              )}
            </Group>
            {chatbot ? <ChatbotLine chatbot={chatbot} /> : <Skeleton height={10} width={220} mt={6} />}
          </Stack>
        </Group>
        <Group gap="xs" wrap="nowrap" style={{ flex: 'none' }}>
          {chatbot && <ChatbotSwitcher current={chatbot} />}
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} />}
            onClick={onNewSession}
            classNames={{ label: classes.newSessionLabel, section: classes.newSessionIcon }}
          >
            {t('session.newButton')}
          </Button>
        </Group>
      </Group>
      <RenameDialog
        session={session}
        opened={rename.opened}
        formKey={rename.formKey}
        onClose={() => setRename(({ formKey }) => ({ opened: false, formKey }))}
      />
      <DeleteSessionDialog session={deleting} onClose={() => setDeleting(null)} onDelete={(target) => deleteSession.mutate(target)} />
    </header>
  );
}
