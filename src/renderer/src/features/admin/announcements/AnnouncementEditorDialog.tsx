import { useState } from 'react';
import { Button, Group, Modal, Stack, Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MarkdownEditor } from '../../../components/MarkdownEditor';

export type EditorMode = { kind: 'create' } | { kind: 'edit'; id: number; content: string };

interface AnnouncementEditorDialogProps {
  mode: EditorMode | null;
  saving: boolean;
  onClose: () => void;
  onSubmit: (content: string, isActive: boolean) => void;
}

function EditorBody({ mode, saving, onClose, onSubmit }: AnnouncementEditorDialogProps & { mode: EditorMode }) {
  const { t } = useTranslation('admin');
  const [content, setContent] = useState(mode.kind === 'edit' ? mode.content : '');
  const [isActive, setIsActive] = useState(true);
  return (
    <Stack gap="md">
      <MarkdownEditor initialMarkdown={content} onChange={setContent} />
      {mode.kind === 'create' && (
        <Switch checked={isActive} onChange={(event) => setIsActive(event.currentTarget.checked)} label={t('announcements.set_active')} />
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          {t('announcements.cancel')}
        </Button>
        <Button onClick={() => onSubmit(content.trim(), isActive)} disabled={!content.trim()} loading={saving}>
          {mode.kind === 'create' ? t('announcements.create') : t('announcements.save')}
        </Button>
      </Group>
    </Stack>
  );
}

/** Create (with "Set as active", on by default) and edit (Save / Cancel) dialogs. */
export function AnnouncementEditorDialog(props: AnnouncementEditorDialogProps) {
  const { t } = useTranslation('admin');
  const { mode, onClose } = props;
  return (
    <Modal
      opened={mode !== null}
      onClose={onClose}
      size="xl"
      title={mode?.kind === 'edit' ? t('announcements.edit_title') : t('announcements.create_title')}
      styles={{ title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {mode && <EditorBody {...props} mode={mode} key={mode.kind === 'edit' ? mode.id : 'create'} />}
    </Modal>
  );
}
