import { Box, Button, Center, FileButton, Group, Image, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminTenantSettingsApi, tenantsApi, type Tenant, type TenantSettings } from '../../../../../shared/api';
import { acceptAttribute } from '../../../../../shared/domain/files';
import { LOGO_KINDS, LOGO_MAX_BYTES } from '../../../../../shared/domain/tenantSettings';
import { resolveServerUrl } from '../../../api/client';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { uploadFile } from '../../../api/files';
import { bodySchemaOf, focusFirstError, formErrorText, zodResolver } from '../../../components/forms/zodResolver';
import { IconImage, IconTrash } from '../../../components/icons';
import { showToast } from '../../../components/toast';
import { FormSaveButton, SettingsFormCard } from '../SettingsCards';

const patchSchema = bodySchemaOf(adminTenantSettingsApi.updateTenantSettings);

interface BrandingValues {
  tenant_name: string;
  support_email: string;
  manual_url: string;
}

const toValues = (settings: TenantSettings): BrandingValues => ({
  tenant_name: settings.tenant_name,
  support_email: settings.support_email ?? '',
  manual_url: settings.manual_url ?? '',
});

/** Blank optional settings are cleared (null), not saved as empty text. */
const toBody = (values: BrandingValues) => ({
  tenant_name: values.tenant_name.trim(),
  support_email: values.support_email.trim() || null,
  manual_url: values.manual_url.trim() || null,
});

/**
 * Whatever changed the branding: the sign-in page, the navigation and the console's own header read
 * `GET /tenants/`. Its cached copy takes the saved values rather than a refetch, which could answer
 * the server's few-seconds-old tenant row (ARCHITECTURE "Tenant settings").
 */
function useSettingsSaved() {
  const queryClient = useQueryClient();
  return (saved: TenantSettings) => {
    queryClient.setQueryData(endpointKey(adminTenantSettingsApi.getTenantSettings), saved);
    // The tenant's logo is kept absolute (api/tenant.ts).
    void (async () => {
      const logo_url = saved.logo_url && (await resolveServerUrl(saved.logo_url));
      queryClient.setQueryData(
        endpointKey(tenantsApi.getTenant),
        (tenant: Tenant | undefined) => tenant && { ...tenant, tenant_name: saved.tenant_name, logo_url, manual_url: saved.manual_url },
      );
    })();
  };
}

/** A URL the server gave, absolute against the API base (the desktop page's origin is not the server's); null until known. */
function useServerUrl(url: string | null): string | null {
  const [resolved, setResolved] = useState<{ url: string; absolute: string } | null>(null);
  useEffect(() => {
    if (!url) return;
    let current = true;
    void resolveServerUrl(url).then((absolute) => current && setResolved({ url, absolute }));
    return () => {
      current = false;
    };
  }, [url]);
  return resolved && resolved.url === url ? resolved.absolute : null;
}

function LogoField({ settings }: { settings: TenantSettings }) {
  const { t } = useTranslation('tenantSettings');
  const saved = useSettingsSaved();
  const upload = useEndpointMutation(adminTenantSettingsApi.uploadTenantLogo, {
    send: (file: File) => uploadFile(adminTenantSettingsApi.uploadTenantLogo, file),
    onSuccess: (result) => {
      saved(result);
      showToast('success', t('branding.logo_saved'));
    },
  });
  const remove = useEndpointMutation(adminTenantSettingsApi.deleteTenantLogo, {
    onSuccess: (result) => {
      saved(result);
      showToast('success', t('branding.logo_removed'));
    },
  });
  const logoUrl = useServerUrl(settings.logo_url);

  function choose(file: File | null) {
    if (!file) return;
    // Said at once rather than after the upload: the server checks the same limit (413).
    if (file.size > LOGO_MAX_BYTES) showToast('error', t('branding.logo_too_large'));
    else upload.mutate(file);
  }

  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id="logo-label">
        {t('branding.logo')}
      </Text>
      <Group gap="md" align="center" wrap="wrap">
        <Center w={200} h={64} bg="gray.0" style={{ borderRadius: 8, border: '1px dashed var(--mantine-color-gray-4)' }} data-testid="logo-preview">
          {logoUrl ? (
            <Image src={logoUrl} alt={t('branding.logo_alt', { name: settings.tenant_name })} h={48} w="auto" maw={180} fit="contain" />
          ) : (
            <Text size="xs" c="dimmed">
              {t('branding.no_logo')}
            </Text>
          )}
        </Center>
        <Group gap="xs">
          <FileButton onChange={choose} accept={acceptAttribute(LOGO_KINDS)}>
            {(props) => (
              <Button
                {...props}
                variant="default"
                leftSection={<IconImage size={16} />}
                loading={upload.isPending}
                aria-describedby="logo-hint"
                data-testid="logo-upload"
              >
                {settings.logo_url ? t('branding.replace_logo') : t('branding.upload_logo')}
              </Button>
            )}
          </FileButton>
          {settings.logo_url && (
            <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} loading={remove.isPending} onClick={() => remove.mutate()}>
              {t('branding.remove_logo')}
            </Button>
          )}
        </Group>
      </Group>
      <Text size="xs" c="dimmed" id="logo-hint">
        {t('branding.logo_hint')}
      </Text>
    </Stack>
  );
}

function BrandingForm({ settings }: { settings: TenantSettings }) {
  const { t } = useTranslation('tenantSettings');
  const saved = useSettingsSaved();
  const form = useForm<BrandingValues>({
    mode: 'controlled',
    initialValues: toValues(settings),
    validate: (values) =>
      zodResolver(patchSchema, { support_email: 'tenantSettings:branding.email_invalid', manual_url: 'tenantSettings:branding.url_invalid' })(toBody(values)),
  });
  const save = useEndpointMutation(adminTenantSettingsApi.updateTenantSettings, {
    onSuccess: (result) => {
      saved(result);
      form.resetDirty(toValues(result));
      form.setValues(toValues(result));
      showToast('success', t('branding.saved'));
    },
  });
  const error = (path: keyof BrandingValues) => formErrorText(form.errors[path]);
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(
        (values) => save.mutate({ body: toBody(values) }),
        (errors) => focusFirstError(form, errors),
      )}
    >
      <Stack gap="md">
        <TextInput
          label={t('branding.name')}
          withAsterisk
          {...form.getInputProps('tenant_name')}
          error={error('tenant_name')}
          data-testid="tenant-name-input"
        />
        <TextInput
          label={t('branding.support_email')}
          description={t('branding.support_email_hint')}
          type="email"
          {...form.getInputProps('support_email')}
          error={error('support_email')}
        />
        <TextInput
          label={t('branding.manual_url')}
          description={t('branding.manual_url_hint')}
          type="url"
          placeholder="https://"
          {...form.getInputProps('manual_url')}
          error={error('manual_url')}
        />
        <FormSaveButton label={t('branding.save')} dirty={form.isDirty()} loading={save.isPending} />
      </Stack>
    </form>
  );
}

/** Tenant name, logo, support address and manual link: what the sign-in page and the navigation show. */
export function BrandingCard() {
  const { t } = useTranslation('tenantSettings');
  const settings = useEndpointQuery(adminTenantSettingsApi.getTenantSettings, {}, { errorToast: true });
  return (
    <SettingsFormCard id="branding-title" title={t('branding.title')} description={t('branding.description')} query={settings} skeletonHeight={260}>
      {(data) => (
        <Stack gap="lg">
          <LogoField settings={data} />
          <Box>
            <BrandingForm settings={data} />
          </Box>
        </Stack>
      )}
    </SettingsFormCard>
  );
}
