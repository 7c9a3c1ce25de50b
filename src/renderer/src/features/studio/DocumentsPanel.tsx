import { useEffect, useState } from 'react';
import { ActionIcon, Button, FileButton, Group, Paper, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { chatbotsApi, type Chatbot, type ChatbotDocument, type FileProgress } from '../../../../shared/api';
import { acceptAttribute } from '../../../../shared/domain/files';
import { endpointKey, useEndpointMutation } from '../../api/endpointHooks';
import { getFileProgress } from '../../api/files';
import { uploadChatbotDocuments } from '../../api/studio';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { IconPlus, IconTrash } from '../../components/icons';
import { showToast } from '../../components/toast';
import { formatSize } from '../chat/attachments/attachmentsStore';

/** As often as the composer's attachment chips ask for parse progress. */
const POLL_MS = 1000;

/** The `files` message of a document's parse state (the composer's chips say the same). */
function stateKey(document: Pick<ChatbotDocument, 'status' | 'parsed_percentage'>): 'parsing' | 'parse_failed' | 'ready' | 'parsed_part' {
  if (document.status === 'parsing') return 'parsing';
  if (document.status === 'failed') return 'parse_failed';
  return document.parsed_percentage >= 100 ? 'ready' : 'parsed_part';
}

/**
 * Parse progress of the documents still being read, polled like the composer's attachments;
 * once none is left the chatbot is read again for the final states.
 */
function useParseProgress(chatbot: Chatbot): Map<number, FileProgress> {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<Map<number, FileProgress>>(() => new Map());
  const parsingIds = chatbot.documents.flatMap((document) => (document.status === 'parsing' && document.file_id !== null ? [document.file_id] : []));
  const parsingKey = parsingIds.join(',');
  useEffect(() => {
    if (parsingKey === '') return;
    const ids = parsingKey.split(',').map(Number);
    const timer = setInterval(() => {
      void getFileProgress(ids)
        .then((items) => {
          setProgress(new Map(items.map((item) => [item.id, item])));
          if (items.every((item) => item.status !== 'parsing'))
            void queryClient.invalidateQueries({ queryKey: endpointKey(chatbotsApi.getChatbot, { params: { id: chatbot.id } }) });
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [parsingKey, chatbot.id, queryClient]);
  return progress;
}

/** Knowledge documents (spec §3): upload (parsed and indexed in the background), progress, delete. */
export function DocumentsPanel({ chatbot }: { chatbot: Chatbot }) {
  const { t } = useTranslation('studio');
  const { t: tf, i18n } = useTranslation('files');
  const queryClient = useQueryClient();
  const progress = useParseProgress(chatbot);
  const [pendingDelete, setPendingDelete] = useState<ChatbotDocument | null>(null);
  const setDocuments = (change: (documents: ChatbotDocument[]) => ChatbotDocument[]) =>
    queryClient.setQueryData<Chatbot>(
      endpointKey(chatbotsApi.getChatbot, { params: { id: chatbot.id } }),
      (old) => old && { ...old, documents: change(old.documents) },
    );

  const [uploaded, setUploaded] = useState(0);
  const upload = useEndpointMutation(chatbotsApi.uploadChatbotDocuments, {
    // One multipart request, its progress shown.
    send: (files: File[]) => {
      setUploaded(0);
      return uploadChatbotDocuments(chatbot.id, files, setUploaded);
    },
    onSuccess: (added) => setDocuments((documents) => [...documents, ...added]),
  });
  const remove = useEndpointMutation(chatbotsApi.deleteChatbotDocument, {
    toInput: (document: ChatbotDocument) => ({ params: { id: chatbot.id, docId: document.id } }),
    onSuccess: (_, document) => {
      setDocuments((documents) => documents.filter((item) => item.id !== document.id));
      showToast('success', t('documents.deleted'));
    },
    onSettled: () => setPendingDelete(null),
  });

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed" flex={1} miw={200}>
          {t('documents.hint')}
        </Text>
        <FileButton multiple accept={acceptAttribute()} onChange={(files) => files.length > 0 && upload.mutate(files)}>
          {(props) => (
            <Button {...props} size="xs" variant="default" leftSection={<IconPlus size={14} />} loading={upload.isPending} data-testid="upload-documents">
              {t('documents.upload')}
            </Button>
          )}
        </FileButton>
      </Group>
      {upload.isPending && <Progress value={Math.max(uploaded, 3)} animated size="sm" aria-label={tf('uploading', { percentage: uploaded })} />}
      {chatbot.documents.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" py="md">
          {t('documents.empty')}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('documents.title')}>
          {chatbot.documents.map((document) => {
            const live = document.file_id === null ? undefined : progress.get(document.file_id);
            const shown = live ? { status: live.status, parsed_percentage: live.parsed_percentage } : document;
            return (
              <Paper key={document.id} component="li" withBorder radius="md" p="xs" data-testid="chatbot-document" data-state={shown.status}>
                <Group gap="xs" wrap="nowrap">
                  <Stack gap={2} flex={1} miw={0}>
                    <Text size="sm" fw={500} truncate="end" title={document.name}>
                      {document.name}
                    </Text>
                    <Text size="xs" c={shown.status === 'failed' ? 'red.9' : 'dimmed'}>
                      {formatSize(document.size, i18n.language)} · <span role="status">{tf(stateKey(shown), { percentage: shown.parsed_percentage })}</span>
                    </Text>
                    {shown.status === 'parsing' && (
                      <Progress size="xs" value={Math.max(shown.parsed_percentage, 3)} aria-label={tf('progress', { name: document.name })} />
                    )}
                  </Stack>
                  <Tooltip label={t('documents.delete', { name: document.name })}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('documents.delete', { name: document.name })}
                      onClick={() => setPendingDelete(document)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Paper>
            );
          })}
        </Stack>
      )}
      <ConfirmDialog
        opened={pendingDelete !== null}
        title={t('documents.delete_title')}
        body={t('documents.delete_body', { name: pendingDelete?.name ?? '' })}
        cancelLabel={t('cancel')}
        confirmLabel={t('delete')}
        loading={remove.isPending}
        onCancel={() => setPendingDelete(null)}
        onConfirm={() => pendingDelete && remove.mutate(pendingDelete)}
      />
    </Stack>
  );
}
