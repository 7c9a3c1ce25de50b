import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Modal, Skeleton, Stack, Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { adminAnnouncementsApi } from '../../../../../shared/api';
import { bodySchemaOf, formErrorText, zodResolver } from '../../../components/forms/zodResolver';

/**
 * The rich text editor (tiptap and its markdown support, about 350 kB) loads when an editor dialog
 * first opens, not with the announcements list.
 */
const MarkdownEditor = lazy(() => import('../../../components/MarkdownEditor').then((module) => ({ default: module.MarkdownEditor })));

export type EditorMode = { kind: 'create' } | { kind: 'edit'; id: number; content: string };

interface AnnouncementEditorDialogProps {
  mode: EditorMode | null;
  saving: boolean;
  onClose: () => void;
  onSubmit: (content: string, isActive: boolean) => void;
}

interface EditorBodyProps extends AnnouncementEditorDialogProps {
  mode: EditorMode;
  /** Escape, ✕, a click outside or Cancel: closes at once without changes, asks first with them. */
  onRequestClose: () => void;
  askingToDiscard: boolean;
  onKeepEditing: () => void;
  /** Tells the dialog whether closing now would lose typed text. */
  onDirtyChange: (dirty: boolean) => void;
}

/** "Discard your changes?" inside the dialog, focused on Keep editing (the safe choice). */
function DiscardQuestion({ onKeepEditing, onDiscard }: { onKeepEditing: () => void; onDiscard: () => void }) {
  const { t } = useTranslation('admin');
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  return (
    <Alert color="red" variant="light" role="alertdialog" title={t('announcements.discard_question')}>
      <Group justify="flex-end" gap="sm">
        <Button ref={keep} variant="default" onClick={onKeepEditing}>
          {t('announcements.keep_editing')}
        </Button>
        <Button color="red" onClick={onDiscard}>
          {t('announcements.discard')}
        </Button>
      </Group>
    </Alert>
  );
}

/** Create validates the create body (content and is_active); edit the content form of the patch body. */
const createFormSchema = bodySchemaOf(adminAnnouncementsApi.createAnnouncement);
const editFormSchema = bodySchemaOf(adminAnnouncementsApi.patchAnnouncement).options[0].strip();

function EditorBody({ mode, saving, onClose, onSubmit, onRequestClose, askingToDiscard, onKeepEditing, onDirtyChange }: EditorBodyProps) {
  const { t } = useTranslation('admin');
  const initialContent = mode.kind === 'edit' ? mode.content : '';
  const form = useForm({
    mode: 'controlled',
    initialValues: { content: initialContent, is_active: true },
    validate: zodResolver(mode.kind === 'create' ? createFormSchema : editFormSchema),
    validateInputOnChange: true,
  });
  const { content, is_active: isActive } = form.values;
  const dirty = content.trim() !== initialContent.trim() || (mode.kind === 'create' && !isActive);
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  const area = useRef<HTMLFormElement>(null);
  const focusEditor = () => area.current?.querySelector<HTMLElement>('[role="textbox"]')?.focus();
  const keepEditing = () => {
    onKeepEditing();
    focusEditor();
  };
  return (
    <form ref={area} noValidate onSubmit={form.onSubmit((values) => onSubmit(values.content.trim(), values.is_active), focusEditor)}>
      <Stack gap="md">
        <Suspense fallback={<Skeleton h={220} />}>
          <MarkdownEditor
            label={t('announcements.content_label')}
            initialMarkdown={initialContent}
            onChange={(markdown) => form.setFieldValue('content', markdown)}
            error={formErrorText(form.errors.content)}
          />
        </Suspense>
        {mode.kind === 'create' && <Switch {...form.getInputProps('is_active', { type: 'checkbox' })} label={t('announcements.set_active')} />}
        {askingToDiscard ? (
          <DiscardQuestion onKeepEditing={keepEditing} onDiscard={onClose} />
        ) : (
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onRequestClose}>
              {t('announcements.cancel')}
            </Button>
            <Button type="submit" loading={saving}>
              {mode.kind === 'create' ? t('announcements.create') : t('announcements.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/**
 * Create (with "Set as active", on by default) and edit (Save / Cancel) dialogs. Closing with
 * unsaved text asks first, so a stray Escape never throws a draft away.
 */
export function AnnouncementEditorDialog(props: AnnouncementEditorDialogProps) {
  const { t } = useTranslation('admin');
  const { mode, onClose } = props;
  const dirty = useRef(false);
  const [askingToDiscard, setAskingToDiscard] = useState(false);
  const onDirtyChange = useCallback((next: boolean) => {
    dirty.current = next;
  }, []);

  const close = () => {
    dirty.current = false;
    setAskingToDiscard(false);
    onClose();
  };
  const requestClose = () => (dirty.current ? setAskingToDiscard(true) : close());

  return (
    <Modal
      opened={mode !== null}
      onClose={requestClose}
      size="xl"
      title={mode?.kind === 'edit' ? t('announcements.edit_title') : t('announcements.create_title')}
      styles={{ title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {mode && (
        <EditorBody
          {...props}
          onClose={close}
          mode={mode}
          key={mode.kind === 'edit' ? mode.id : 'create'}
          onRequestClose={requestClose}
          askingToDiscard={askingToDiscard}
          onKeepEditing={() => setAskingToDiscard(false)}
          onDirtyChange={onDirtyChange}
        />
      )}
    </Modal>
  );
}
