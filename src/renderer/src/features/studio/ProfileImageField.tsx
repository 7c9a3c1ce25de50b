import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { chatbotsApi, filesApi, type Chatbot } from '../../../../shared/api';
import { useEndpointMutation } from '../../api/endpointHooks';
import { uploadChatFiles } from '../../api/files';
import { IconImage } from '../../components/icons';
import { showToast } from '../../components/toast';
import { cropToSquare } from './cropSquare';

/** The picture could not be read as an image (in the browser, or the upload kept nothing): no call failed, the field says so. */
class UnreadableImage extends Error {}

/**
 * The chatbot's picture: cropped to a square in the browser, uploaded as a file of the chatbot,
 * then set on it (the server then keeps it and makes it public). Saved at once, apart from the form (it is a file, not a field).
 */
export function ProfileImageField({ chatbot, name, onSaved }: { chatbot: Chatbot; name: string; onSaved: (chatbot: Chatbot) => void }) {
  const { t } = useTranslation('studio');
  // Each call's failure is toasted with its own endpoint's message.
  const uploadSquare = useEndpointMutation(filesApi.uploadFiles, {
    send: (square: File) => uploadChatFiles([square], { chatbotId: chatbot.id, attached: [] }),
  });
  const setImage = useEndpointMutation(chatbotsApi.updateChatbot, { onSuccess: onSaved });
  // Crop, upload, set: one step as the field shows it.
  const upload = useEndpointMutation(chatbotsApi.updateChatbot, {
    errorToast: false,
    send: async (file: File) => {
      const square = await cropToSquare(file).catch(() => {
        throw new UnreadableImage();
      });
      const [uploaded] = await uploadSquare.mutateAsync(square);
      if (!uploaded) throw new UnreadableImage();
      return setImage.mutateAsync({ params: { id: chatbot.id }, body: { profile_image_file_id: uploaded.id } });
    },
    onSuccess: () => showToast('success', t('image.saved')),
    onError: (error) => {
      if (error instanceof UnreadableImage) showToast('error', t('image.unreadable'));
    },
  });
  const remove = useEndpointMutation(chatbotsApi.updateChatbot, { onSuccess: onSaved });

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
            <Button
              size="xs"
              variant="subtle"
              color="red"
              loading={remove.isPending}
              onClick={() => remove.mutate({ params: { id: chatbot.id }, body: { profile_image_file_id: null } })}
            >
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
