import { Badge, Button, FileButton, Group, Radio, Stack, Switch, Table, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminPoliciesApi, isApiError, type AdminPolicy } from '../../../../../shared/api';
import { acceptAttribute } from '../../../../../shared/domain/files';
import { POLICY_FILE_KINDS, POLICY_FILE_MAX_BYTES, POLICY_KINDS, type PolicyKind } from '../../../../../shared/domain/tenantSettings';
import { signupFormKey } from '../../../api/signup';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { uploadFile } from '../../../api/files';
import { FormDialogButtons } from '../../../components/forms/FormDialogButtons';
import { bodySchemaOf, focusFirstError, formErrorText, zodResolver } from '../../../components/forms/zodResolver';
import { IconDownload } from '../../../components/icons';
import { showToast } from '../../../components/toast';
import { SettingsListCard } from '../SettingsCards';

interface PolicyValues {
  policy_name: string;
  kind: PolicyKind;
  is_mandatory: boolean;
  markdown_content: string;
  video_url: string;
  file_id: number | null;
  /** The chosen document's name, shown beside the upload button. */
  file_name: string | null;
}

const toValues = (policy: AdminPolicy | null): PolicyValues => ({
  policy_name: policy?.policy_name ?? '',
  kind: policy?.kind ?? 'markdown',
  is_mandatory: policy?.is_mandatory ?? true,
  markdown_content: policy?.markdown_content ?? '',
  video_url: policy?.video_url ?? '',
  file_id: policy?.file_id ?? null,
  file_name: policy?.file_name ?? null,
});

/** Only the content of the chosen kind is sent (the server keeps nothing else). */
const toBody = (values: PolicyValues) => ({
  policy_name: values.policy_name.trim(),
  kind: values.kind,
  is_mandatory: values.is_mandatory,
  markdown_content: values.kind === 'markdown' ? values.markdown_content : null,
  video_url: values.kind === 'video' ? values.video_url.trim() : null,
  file_id: values.kind === 'file' ? values.file_id : null,
});

const bodySchema = bodySchemaOf(adminPoliciesApi.createPolicy);

/** The body's rules, and the content its kind needs (the server answers 422 without it). */
function validate(values: PolicyValues) {
  const errors = zodResolver(bodySchema, { video_url: 'tenantSettings:policies.video_invalid' })(toBody(values));
  if (values.kind === 'markdown' && !values.markdown_content.trim()) errors.markdown_content = 'validation.required';
  if (values.kind === 'video' && !values.video_url.trim()) errors.video_url = 'validation.required';
  if (values.kind === 'file' && values.file_id === null) errors.file_id = 'tenantSettings:policies.file_required';
  return errors;
}

function PolicyDialog({ policy, onClose }: { policy: AdminPolicy | null; onClose: () => void }) {
  const { t } = useTranslation('tenantSettings');
  const queryClient = useQueryClient();
  const form = useForm<PolicyValues>({ mode: 'controlled', initialValues: toValues(policy), validate });
  const handlers = {
    invalidates: () => [endpointKey(adminPoliciesApi.listAdminPolicies), signupFormKey],
    onSuccess: () => {
      showToast('success', t(policy ? 'policies.updated' : 'policies.created'));
      onClose();
    },
    onError: (error: unknown) => {
      // Deleted meanwhile (another admin): the list shows what is left.
      if (isApiError(error) && error.status === 404) {
        void queryClient.invalidateQueries({ queryKey: endpointKey(adminPoliciesApi.listAdminPolicies) });
        onClose();
      }
    },
  };
  const create = useEndpointMutation(adminPoliciesApi.createPolicy, handlers);
  const update = useEndpointMutation(adminPoliciesApi.updatePolicy, handlers);
  const save = (values: PolicyValues) => {
    if (policy) update.mutate({ params: { id: policy.id }, body: toBody(values) });
    else create.mutate({ body: toBody(values) });
  };
  const upload = useEndpointMutation(adminPoliciesApi.uploadPolicyFile, {
    send: (file: File) => uploadFile(adminPoliciesApi.uploadPolicyFile, file),
    onSuccess: (file) => {
      form.setFieldValue('file_id', file.file_id);
      form.setFieldValue('file_name', file.name);
      form.clearFieldError('file_id');
    },
  });
  function choose(file: File | null) {
    if (!file) return;
    if (file.size > POLICY_FILE_MAX_BYTES) showToast('error', t('policies.file_too_large'));
    else upload.mutate(file);
  }
  const error = (path: keyof PolicyValues) => formErrorText(form.errors[path]);

  return (
    <form noValidate onSubmit={form.onSubmit(save, (errors) => focusFirstError(form, errors))}>
      <Stack gap="md">
        <TextInput
          label={t('policies.name')}
          withAsterisk
          data-autofocus
          {...form.getInputProps('policy_name')}
          error={error('policy_name')}
          data-testid="policy-name-input"
        />
        <Radio.Group label={t('policies.kind')} {...form.getInputProps('kind')}>
          <Group mt={6}>
            {POLICY_KINDS.map((kind) => (
              <Radio key={kind} value={kind} label={t(`policies.kind_${kind}`)} />
            ))}
          </Group>
        </Radio.Group>
        {form.values.kind === 'markdown' && (
          <Textarea
            label={t('policies.markdown')}
            description={t('policies.markdown_hint')}
            withAsterisk
            autosize
            minRows={6}
            maxRows={16}
            {...form.getInputProps('markdown_content')}
            error={error('markdown_content')}
            data-testid="policy-markdown-input"
          />
        )}
        {form.values.kind === 'video' && (
          <TextInput
            label={t('policies.video_url')}
            description={t('policies.video_url_hint')}
            withAsterisk
            type="url"
            placeholder="https://"
            {...form.getInputProps('video_url')}
            error={error('video_url')}
          />
        )}
        {form.values.kind === 'file' && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('policies.file')}
            </Text>
            <Group gap="sm">
              <FileButton onChange={choose} accept={acceptAttribute(POLICY_FILE_KINDS)}>
                {(props) => (
                  <Button {...props} variant="default" loading={upload.isPending} aria-describedby="policy-file-hint">
                    {form.values.file_id ? t('policies.replace_file') : t('policies.upload_file')}
                  </Button>
                )}
              </FileButton>
              {form.values.file_name && (
                <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="policy-file-name">
                  {form.values.file_name}
                </Text>
              )}
            </Group>
            <Text size="xs" c="dimmed" id="policy-file-hint">
              {t('policies.file_hint')}
            </Text>
            {form.errors.file_id && (
              <Text size="xs" c="red" role="alert">
                {error('file_id')}
              </Text>
            )}
          </Stack>
        )}
        <Switch label={t('policies.mandatory')} description={t('policies.mandatory_hint')} {...form.getInputProps('is_mandatory', { type: 'checkbox' })} />
        <FormDialogButtons
          cancelLabel={t('cancel')}
          onCancel={onClose}
          submitLabel={t('save')}
          saving={create.isPending || update.isPending}
          disabled={upload.isPending}
        />
      </Stack>
    </form>
  );
}

/** The policies new members agree to (spec §3, §5): markdown, video or a document; mandatory or not. */
export function PoliciesCard() {
  const { t } = useTranslation('tenantSettings');
  const queryClient = useQueryClient();
  const list = useEndpointQuery(adminPoliciesApi.listAdminPolicies, {}, { errorToast: true });
  const remove = useEndpointMutation(adminPoliciesApi.deletePolicy, {
    onSuccess: () => showToast('success', t('policies.deleted')),
    // Also after a failure: a 404 means another admin deleted it. Not awaited: the confirmation closes as soon as the delete is answered.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: signupFormKey });
      void queryClient.invalidateQueries({ queryKey: endpointKey(adminPoliciesApi.listAdminPolicies) });
    },
  });
  return (
    <SettingsListCard
      id="policies-title"
      title={t('policies.title')}
      description={t('policies.description')}
      addLabel={t('policies.add')}
      addTestId="add-policy"
      emptyText={t('policies.empty')}
      query={{ isPending: list.isPending, data: list.data?.items }}
      table={{
        minWidth: 480,
        testId: 'policies',
        actionsLabel: t('actions'),
        head: (
          <>
            <Table.Th>{t('policies.name')}</Table.Th>
            <Table.Th>{t('policies.kind')}</Table.Th>
            <Table.Th>{t('policies.mandatory')}</Table.Th>
          </>
        ),
      }}
      cells={(policy) => (
        <>
          <Table.Td style={{ overflowWrap: 'anywhere' }}>
            {policy.policy_name}
            {policy.file_name && (
              <Text size="xs" c="dimmed" component="span" display="flex" style={{ alignItems: 'center', gap: 4 }}>
                <IconDownload size={12} />
                {policy.file_name}
              </Text>
            )}
          </Table.Td>
          <Table.Td>{t(`policies.kind_${policy.kind}`)}</Table.Td>
          <Table.Td>
            <Badge size="sm" variant="light" color={policy.is_mandatory ? 'red' : 'gray'}>
              {policy.is_mandatory ? t('policies.mandatory_yes') : t('policies.mandatory_no')}
            </Badge>
          </Table.Td>
        </>
      )}
      actionLabels={(policy) => ({ edit: t('policies.edit', { name: policy.policy_name }), delete: t('policies.delete', { name: policy.policy_name }) })}
      editor={{
        title: (isNew) => t(isNew ? 'policies.create_title' : 'policies.edit_title'),
        size: 'lg',
        form: (policy, close) => <PolicyDialog policy={policy} onClose={close} />,
      }}
      deletion={{
        title: (policy) => t('policies.delete_title', { name: policy?.policy_name ?? '' }),
        body: (policy) => t('policies.delete_body', { name: policy?.policy_name ?? '' }),
        cancelLabel: t('cancel'),
        confirmLabel: t('delete'),
        pending: remove.isPending,
        confirm: (policy, close) => remove.mutate({ params: { id: policy.id } }, { onSettled: close }),
      }}
    />
  );
}
