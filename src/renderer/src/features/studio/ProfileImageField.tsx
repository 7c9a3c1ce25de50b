import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { chatbotsApi, filesApi, type Chatbot } from '../../../../shared/api';
import { errorMessageKey } from '../../api/errorMessages';
import { uploadChatFiles } from '../../api/files';
import { updateChatbot } from '../../api/studio';
import { IconImage } from '../../components/icons';
import { showToast } from '../../components/toast';
import { cropToSquare } from './cropSquare';

/** A step before the chatbot's own update failed: its message, not the update's. */
class StepFailure extends Error {
  constructor(readonly messageKey: string) {
    super(messageKey);
  }
}

/**
 * The chatbot's picture: cropped to a square in the browser, uploaded as a file of the chatbot,
 * then set on it (the server then keeps it and makes it public). Saved at once, apart from the form (it is a file, not a field).
 */
export function ProfileImageField({ chatbot, name, onSaved }: { chatbot: Chatbot; name: string; onSaved: (chatbot: Chatbot) => void }) {
  const { t } = useTranslation('studio');
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const square = await cropToSquare(file).catch(() => {
        throw new StepFailure('image.unreadable');
      });
      const [uploaded] = await uploadChatFiles([square], { chatbotId: chatbot.id, attached: [] }).catch((error: unknown) => {
        throw new StepFailure(errorMessageKey(error, filesApi.uploadFiles));
      });
      if (!uploaded) throw new StepFailure('image.unreadable');
      return updateChatbot(chatbot.id, { profile_image_file_id: uploaded.id });
    },
    onSuccess: (saved) => {
      onSaved(saved);
      showToast('success', t('image.saved'));
    },
    onError: (error) => showToast('error', t(error instanceof StepFailure ? error.messageKey : errorMessageKey(error, chatbotsApi.updateChatbot))),
  });
  const remove = useMutation({
    mutationFn: () => updateChatbot(chatbot.id, { profile_image_file_id: null }),
    onSuccess: onSaved,
    onError: (error) => showToast('error', t(errorMessageKey(error, chatbotsApi.updateChatbot))),
  });

  return (
    <Group gap="md" wrap="nowrap">
      <Avatar src={chatbot.profile_image_url} alt={t('image.alt', { name })} size={72} radius="50%" color="indigo" data-testid="profile-image">
        <IconImage size={28} />
      </Avatar>
      <Stack gap={6}>
        <Group gap="xs">
          <FileButton accept="image/png,image/jpeg,image/webp,image/gif" onChange={(file) => file && upload.mutate(file)}>
            {(props) => (
              <Button {...props} size="xs" variant="default" loading={upload.isPending} data-testid="profile-image-button">
                {chatbot.profile_image_url ? t('image.change') : t('image.upload')}
              </Button>
            )}
          </FileButton>
          {chatbot.profile_image_url && (
            <Button size="xs" variant="subtle" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              {t('image.remove')}
            </Button>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {t('image.hint')}
        </Text>
      </Stack>
    </Group>
  );
}
