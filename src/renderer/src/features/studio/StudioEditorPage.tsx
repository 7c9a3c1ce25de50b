import { useCallback, useEffect, useId, useState } from 'react';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Card,
  Center,
  EmptyState,
  Grid,
  Group,
  Loader,
  MultiSelect,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { chatbotsApi, isApiError, type Chatbot, type Member } from '../../../../shared/api';
import { CHATBOT_LIMITS } from '../../../../shared/domain/chatbots';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../api/endpointHooks';
import { errorMessageKey } from '../../api/errorMessages';
import { useCategories } from '../../api/studio';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { focusFirstError, formErrorText, zodResolver } from '../../components/forms/zodResolver';
import { IconLock, IconTrash } from '../../components/icons';
import { showToast } from '../../components/toast';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { useUserSession } from '../../stores/userSession';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { AccessDialog } from './AccessDialog';
import { DocumentsPanel } from './DocumentsPanel';
import { changedFields, editorSchema, editorValuesOf, type EditorValues } from './editorValues';
import { ModelPicker } from './ModelPicker';
import { ProfileImageField } from './ProfileImageField';
import { RangeField } from './RangeField';
import { ChatbotStatusBadge } from '../../components/ChatbotStatusBadge';
import { TestChatPanel } from './TestChatPanel';
import { ToolsSection } from './ToolsSection';
import { FeedbackSection } from './FeedbackSection';
import { useUnsavedChangesGuard } from './useUnsavedChangesGuard';
import { messageText } from '../../i18n/keys';

const STUDIO_PATH = '/dashboard/studio';

/** An admin edits any chatbot of the workspace, default ones included; a member only their own (never a default one). */
const canEdit = (chatbot: Chatbot, member: Pick<Member, 'id' | 'is_admin'> | null) =>
  member !== null && (member.is_admin || (chatbot.creator?.id === member.id && !chatbot.is_default));

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  // Not derived from the title: a Korean title has no \w characters, and every section got one id.
  const id = useId();
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby={id}>
      <Title order={2} size="h5" id={id} mb="md">
        {title}
      </Title>
      <Stack gap="md">{children}</Stack>
    </Card>
  );
}

/** Keyed by the chatbot id, so the form starts from that chatbot's saved values. */
function Editor({ chatbot }: { chatbot: Chatbot }) {
  const { t } = useTranslation('studio');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const categories = useCategories();
  const [saved, setSaved] = useState<EditorValues>(() => editorValuesOf(chatbot));
  const form = useForm<EditorValues>({ mode: 'controlled', initialValues: saved, validate: zodResolver(editorSchema) });
  const dirty = form.isDirty();

  // The access dialog sets the Store category on the server: the form follows unless it was edited here.
  const serverCategories = chatbot.categories.map((category) => category.id).join(',');
  const { isDirty, setFieldValue, resetDirty } = form;
  useEffect(() => {
    if (isDirty('category_ids') || saved.category_ids.join(',') === serverCategories) return;
    const next = { ...saved, category_ids: serverCategories === '' ? [] : serverCategories.split(',').map(Number) };
    setSaved(next);
    setFieldValue('category_ids', next.category_ids);
    // The saved values are the new baseline: other unsaved edits stay unsaved.
    resetDirty(next);
  }, [serverCategories, saved, isDirty, setFieldValue, resetDirty]);
  const { blocker, allowNextLeave } = useUnsavedChangesGuard(dirty);
  const [accessOpen, setAccessOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const name = chatbotName({ ko_name: form.values.ko_name, en_name: form.values.en_name }, language) || t('untitled');
  useDocumentTitle(name);

  const storeSaved = useCallback(
    (next: Chatbot) => queryClient.setQueryData(endpointKey(chatbotsApi.getChatbot, { params: { id: next.id } }), next),
    [queryClient],
  );

  const save = useEndpointMutation(chatbotsApi.updateChatbot, {
    toInput: (values: EditorValues) => ({ params: { id: chatbot.id }, body: changedFields(saved, values) }),
    invalidates: [chatbotsApi.listChatbots],
    onSuccess: (next) => {
      storeSaved(next);
      const values = editorValuesOf(next);
      setSaved(values);
      form.setValues(values);
      form.resetDirty(values);
      showToast('success', t('saved'));
    },
  });

  /** Saves when the form is valid; false when it is not or the save failed (the user was told). */
  const saveNow = useCallback(async (): Promise<boolean> => {
    const result = form.validate();
    if (result.hasErrors) {
      focusFirstError(form, result.errors);
      return false;
    }
    try {
      await save.mutateAsync(form.getValues());
      return true;
    } catch {
      return false;
    }
  }, [form, save]);

  const remove = useEndpointMutation(chatbotsApi.deleteChatbot, {
    invalidates: [chatbotsApi.listChatbots],
    onSuccess: () => {
      showToast('success', t('deleted'));
      queryClient.removeQueries({ queryKey: endpointKey(chatbotsApi.getChatbot, { params: { id: chatbot.id } }) });
      allowNextLeave();
      void navigate(STUDIO_PATH);
    },
  });

  const errorOf = (path: keyof EditorValues) => formErrorText(form.errors[path]);
  const text = (path: keyof EditorValues) => ({ ...form.getInputProps(path), error: errorOf(path) });
  const categoryOptions = (categories.data ?? []).map((category) => ({ value: String(category.id), label: chatbotName(category, language) }));

  return (
    <Box px={{ base: 'md', sm: 32 }} py={24} maw={1440} w="100%" mx="auto">
      {/* An admin edits a default chatbot from the console's list: back there. */}
      <Anchor component={Link} to={chatbot.is_default ? '/admin/default-chatbots' : STUDIO_PATH} size="sm">
        {t(chatbot.is_default ? 'back_default' : 'back')}
      </Anchor>
      <Group justify="space-between" mt="xs" mb="lg" gap="sm">
        <Group gap="sm" miw={0}>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Title>
          <ChatbotStatusBadge status={chatbot.status} />
        </Group>
        <Group gap="xs">
          <Button variant="default" leftSection={<IconLock size={16} />} onClick={() => setAccessOpen(true)} data-testid="open-access">
            {t('access.open')}
          </Button>
          {/* Default chatbots are the workspace's own: edited, never deleted from here. */}
          {!chatbot.is_default && (
            <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={() => setDeleteOpen(true)} data-testid="delete-chatbot">
              {t('delete')}
            </Button>
          )}
          <Button onClick={() => void saveNow()} loading={save.isPending} disabled={!dirty} data-testid="save-chatbot">
            {t('save')}
          </Button>
        </Group>
      </Group>
      {chatbot.status === 'rejected' && chatbot.publish_feedback && (
        <Alert color="red" variant="light" mb="lg" title={t('status.rejected')} data-testid="publish-feedback">
          {t('feedback', { reason: chatbot.publish_feedback })}
        </Alert>
      )}
      {chatbot.status === 'pending' && (
        <Alert color="yellow" variant="light" mb="lg">
          {t('pending_hint')}
        </Alert>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void saveNow();
            }}
          >
            <Stack gap="lg">
              <Section title={t('sections.profile')}>
                <ProfileImageField chatbot={chatbot} name={name} onSaved={storeSaved} />
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextInput label={t('fields.ko_name')} maxLength={CHATBOT_LIMITS.nameMax} {...text('ko_name')} data-testid="ko-name" />
                  <TextInput label={t('fields.en_name')} maxLength={CHATBOT_LIMITS.nameMax} {...text('en_name')} data-testid="en-name" />
                </SimpleGrid>
                <Textarea
                  label={t('fields.ko_key_features')}
                  autosize
                  minRows={2}
                  maxRows={6}
                  maxLength={CHATBOT_LIMITS.keyFeaturesMax}
                  {...text('ko_key_features')}
                />
                <Textarea
                  label={t('fields.en_key_features')}
                  autosize
                  minRows={2}
                  maxRows={6}
                  maxLength={CHATBOT_LIMITS.keyFeaturesMax}
                  {...text('en_key_features')}
                  data-testid="en-key-features"
                />
                <MultiSelect
                  label={t('fields.categories')}
                  data={categoryOptions}
                  value={form.values.category_ids.map(String)}
                  onChange={(values) => form.setFieldValue('category_ids', values.map(Number))}
                  error={errorOf('category_ids')}
                  searchable
                  data-testid="category-select"
                />
              </Section>
              <Section title={t('sections.behaviour')}>
                <Textarea
                  label={t('fields.instructions')}
                  description={t('fields.instructions_hint')}
                  autosize
                  minRows={5}
                  maxRows={16}
                  maxLength={CHATBOT_LIMITS.instructionsMax}
                  {...text('system_instructions')}
                  data-testid="instructions"
                />
                <ModelPicker
                  value={form.values.llm_model_id}
                  current={chatbot.llm_model}
                  onChange={(id) => form.setFieldValue('llm_model_id', id)}
                  error={errorOf('llm_model_id')}
                />
                <RangeField
                  label={t('fields.temperature')}
                  description={t('fields.temperature_hint', CHATBOT_LIMITS.temperature)}
                  range={CHATBOT_LIMITS.temperature}
                  value={form.values.temperature}
                  onChange={(value) => form.setFieldValue('temperature', value)}
                  error={errorOf('temperature')}
                  testId="temperature"
                />
                <RangeField
                  label={t('fields.top_p')}
                  description={t('fields.top_p_hint', CHATBOT_LIMITS.topP)}
                  range={CHATBOT_LIMITS.topP}
                  value={form.values.top_p}
                  onChange={(value) => form.setFieldValue('top_p', value)}
                  error={errorOf('top_p')}
                  testId="top-p"
                />
              </Section>
              <Section title={t('tools.title')}>
                <ToolsSection
                  toolIds={form.values.tool_ids}
                  onToolIdsChange={(ids) => form.setFieldValue('tool_ids', ids)}
                  stepLimit={form.values.tool_step_limit}
                  onStepLimitChange={(value) => form.setFieldValue('tool_step_limit', value)}
                  toolsError={errorOf('tool_ids')}
                  stepLimitError={errorOf('tool_step_limit')}
                />
              </Section>
              <Section title={t('documents.title')}>
                <DocumentsPanel chatbot={chatbot} />
              </Section>
              <Section title={messageText('feedback:studio.title')}>
                <FeedbackSection chatbotId={chatbot.id} />
              </Section>
            </Stack>
          </form>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <TestChatPanel chatbot={chatbot} dirty={dirty} saveFirst={saveNow} />
        </Grid.Col>
      </Grid>
      <AccessDialog chatbot={chatbot} opened={accessOpen} onClose={() => setAccessOpen(false)} />
      <ConfirmDialog
        opened={deleteOpen}
        title={t('delete_title', { name })}
        body={t('delete_body')}
        cancelLabel={t('cancel')}
        confirmLabel={t('delete')}
        loading={remove.isPending}
        onCancel={() => setDeleteOpen(false)}
        onConfirm={() => remove.mutate({ params: { id: chatbot.id } })}
      />
      <ConfirmDialog
        opened={blocker.state === 'blocked'}
        title={t('leave.title')}
        body={t('leave.body')}
        cancelLabel={t('leave.stay')}
        confirmLabel={t('leave.leave')}
        onCancel={() => blocker.reset?.()}
        onConfirm={() => blocker.proceed?.()}
      />
    </Box>
  );
}

/** `/dashboard/studio/:chatbotId`: the editor with its test chat beside it. */
export default function StudioEditorPage() {
  const { t } = useTranslation('studio');
  const id = Number(useParams().chatbotId);
  const valid = Number.isInteger(id) && id > 0;
  const chatbot = useEndpointQuery(chatbotsApi.getChatbot, { params: { id } }, { enabled: valid });
  const member = useUserSession((state) => state.member);
  if (!valid) return <Navigate to={STUDIO_PATH} replace />;
  if (chatbot.isPending)
    return (
      <Center py={80}>
        <Loader aria-label={t('loading')} />
      </Center>
    );
  if (chatbot.isError) {
    const missing = isApiError(chatbot.error) && chatbot.error.status === 404;
    return (
      <Center py={80}>
        <EmptyState title={missing ? t('not_found') : messageText(errorMessageKey(chatbot.error, chatbotsApi.getChatbot))}>
          <Button component={Link} to={STUDIO_PATH} variant="default">
            {t('back')}
          </Button>
        </EmptyState>
      </Center>
    );
  }
  // A chatbot shared with the member is visible but not theirs to change (spec §6): only its author or an admin edits.
  if (!canEdit(chatbot.data, member))
    return (
      <Center py={80}>
        <EmptyState title={t('not_found')}>
          <Button component={Link} to={STUDIO_PATH} variant="default">
            {t('back')}
          </Button>
        </EmptyState>
      </Center>
    );
  return <Editor key={chatbot.data.id} chatbot={chatbot.data} />;
}
