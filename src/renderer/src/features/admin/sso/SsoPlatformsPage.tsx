import { useState } from 'react';
import { Badge, Button, Card, Code, Group, Modal, PasswordInput, SegmentedControl, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { adminSsoPlatformsApi, type AdminSsoPlatform, type AdminSsoPlatformBody } from '../../../../../shared/api';
import { listSsoPlatforms } from '../../../../../shared/api/ssoPlatforms';
import { SSO_DESKTOP_CALLBACK_PATH, SSO_WEB_CALLBACK_PATH } from '../../../../../shared/domain/sso';
import { useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { bodySchemaOf, focusFirstError, formErrorText, zodResolver } from '../../../components/forms/zodResolver';
import { showToast } from '../../../components/toast';
import { AdminPageFrame } from '../AdminPageFrame';

type Kind = AdminSsoPlatformBody['settings']['kind'];

const EMPTY: Record<Kind, AdminSsoPlatformBody['settings']> = {
  oidc: { kind: 'oidc', issuer: '', client_id: '', client_secret: '' },
  directory: {
    kind: 'directory',
    url: '',
    bind_dn: '',
    bind_password: '',
    search_base: '',
    user_id_attribute: 'uid',
    email_attribute: 'mail',
    name_attribute: 'cn',
    phone_attribute: '',
  },
};

const bodySchema = bodySchemaOf(adminSsoPlatformsApi.createSsoPlatform);

/** What a change of the platforms makes stale: the console's list and the sign-in page's. */
const PLATFORM_QUERIES = [adminSsoPlatformsApi.listAdminSsoPlatforms, listSsoPlatforms];

/** Add or edit a platform. Secrets are write-only: left empty, the stored one is kept. */
function PlatformDialog({ platform, onClose }: { platform: AdminSsoPlatform | null; onClose: () => void }) {
  const { t } = useTranslation('sso');
  const form = useForm<AdminSsoPlatformBody>({
    mode: 'controlled',
    initialValues: platform ? { sso_platform_name: platform.sso_platform_name, settings: platform.settings } : { sso_platform_name: '', settings: EMPTY.oidc },
    validate: zodResolver(bodySchema),
  });
  const handlers = {
    invalidates: PLATFORM_QUERIES,
    onSuccess: () => {
      showToast('success', t('admin.saved'));
      onClose();
    },
  };
  const create = useEndpointMutation(adminSsoPlatformsApi.createSsoPlatform, handlers);
  const update = useEndpointMutation(adminSsoPlatformsApi.updateSsoPlatform, handlers);
  const save = (body: AdminSsoPlatformBody) => {
    if (platform) update.mutate({ params: { id: platform.id }, body });
    else create.mutate({ body });
  };
  const kind = form.values.settings.kind;
  const field = (name: string, label: string, props: { secret?: boolean; required?: boolean; description?: string } = {}) => {
    const input = form.getInputProps(`settings.${name}`);
    const error = formErrorText(input.error);
    const common = { label, withAsterisk: props.required, description: props.description, ...input, error };
    return props.secret ? (
      <PasswordInput key={name} {...common} placeholder={platform?.has_secret ? t('admin.secret_kept') : undefined} autoComplete="new-password" />
    ) : (
      <TextInput key={name} {...common} />
    );
  };
  return (
    <Modal opened onClose={onClose} title={platform ? t('admin.edit_title') : t('admin.add_title')} size="lg" centered>
      <form noValidate onSubmit={form.onSubmit(save, (errors) => focusFirstError(form, errors))}>
        <Stack gap="md">
          <TextInput
            label={t('admin.name')}
            withAsterisk
            {...form.getInputProps('sso_platform_name')}
            error={formErrorText(form.errors.sso_platform_name)}
            data-autofocus
          />
          {!platform && (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="sso-kind-label">
                {t('admin.kind')}
              </Text>
              <SegmentedControl
                aria-labelledby="sso-kind-label"
                value={kind}
                onChange={(value) => form.setFieldValue('settings', EMPTY[value as Kind])}
                data={[
                  { value: 'oidc', label: t('admin.kind_oidc') },
                  { value: 'directory', label: t('admin.kind_directory') },
                ]}
              />
            </Stack>
          )}
          {kind === 'oidc' ? (
            <>
              {field('issuer', t('admin.issuer'), { required: true, description: t('admin.issuer_hint') })}
              {field('client_id', t('admin.client_id'), { required: true })}
              {field('client_secret', t('admin.client_secret'), { secret: true })}
              <Text size="xs" c="dimmed">
                {t('admin.redirects')} <Code>{`${window.location.origin}${SSO_WEB_CALLBACK_PATH}`}</Code>{' '}
                <Code>{`http://127.0.0.1${SSO_DESKTOP_CALLBACK_PATH}`}</Code>
              </Text>
            </>
          ) : (
            <>
              {field('url', t('admin.url'), { required: true, description: t('admin.url_hint') })}
              {field('bind_dn', t('admin.bind_dn'))}
              {field('bind_password', t('admin.bind_password'), { secret: true })}
              {field('search_base', t('admin.search_base'), { required: true })}
              <Group grow align="flex-start">
                {field('user_id_attribute', t('admin.user_id_attribute'), { required: true })}
                {field('email_attribute', t('admin.email_attribute'), { required: true })}
              </Group>
              <Group grow align="flex-start">
                {field('name_attribute', t('admin.name_attribute'), { required: true })}
                {field('phone_attribute', t('admin.phone_attribute'), { description: t('admin.phone_attribute_hint') })}
              </Group>
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {t('admin.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Admin console: the tenant's SSO platforms (the spec does not show this screen; docs/ARCHITECTURE.md "SSO"). */
export default function SsoPlatformsPage() {
  const { t } = useTranslation('sso');
  const platforms = useEndpointQuery(adminSsoPlatformsApi.listAdminSsoPlatforms, {}, { errorToast: true });
  const [editing, setEditing] = useState<AdminSsoPlatform | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminSsoPlatform | null>(null);
  const remove = useEndpointMutation(adminSsoPlatformsApi.deleteSsoPlatform, {
    invalidates: PLATFORM_QUERIES,
    onSuccess: () => {
      showToast('success', t('admin.deleted'));
      setDeleting(null);
    },
  });

  return (
    <AdminPageFrame title={t('admin.title')} description={t('admin.description')} maw={960}>
      <Stack gap="md">
        <Group justify="flex-end">
          <Button onClick={() => setEditing('new')}>{t('admin.add')}</Button>
        </Group>
        {!platforms.data ? (
          <Skeleton h={120} />
        ) : platforms.data.items.length === 0 ? (
          <Card withBorder radius="lg" padding="lg">
            <Text c="dimmed" ta="center" data-testid="sso-platforms-empty">
              {t('admin.empty')}
            </Text>
          </Card>
        ) : (
          platforms.data.items.map((platform) => (
            <Card key={platform.id} withBorder radius="lg" padding="lg" data-testid="sso-platform">
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Stack gap={4} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text fw={600}>{platform.sso_platform_name}</Text>
                    <Badge variant="light">{t(`admin.kind_${platform.settings.kind}`)}</Badge>
                  </Group>
                  <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {platform.settings.kind === 'oidc' ? platform.settings.issuer : platform.settings.url}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('admin.members', { count: platform.member_count })}
                  </Text>
                </Stack>
                <Group gap="xs">
                  <Button variant="default" onClick={() => setEditing(platform)} aria-label={t('admin.edit_named', { name: platform.sso_platform_name })}>
                    {t('admin.edit')}
                  </Button>
                  <Button
                    variant="light"
                    color="red"
                    onClick={() => setDeleting(platform)}
                    aria-label={t('admin.delete_named', { name: platform.sso_platform_name })}
                  >
                    {t('admin.delete')}
                  </Button>
                </Group>
              </Group>
            </Card>
          ))
        )}
      </Stack>
      {editing && <PlatformDialog platform={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('admin.delete_title')}
        body={t('admin.delete_message', { name: deleting?.sso_platform_name ?? '', count: deleting?.member_count ?? 0 })}
        cancelLabel={t('cancel')}
        confirmLabel={t('admin.delete')}
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ params: { id: deleting.id } })}
      />
    </AdminPageFrame>
  );
}
