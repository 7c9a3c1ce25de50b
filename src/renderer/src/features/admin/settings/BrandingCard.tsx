import { Box, Button, Center, FileButton, Group, Image, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminTenantSettingsApi, type Tenant, type TenantSettings } from '../../../../../shared/api';
import { acceptAttribute } from '../../../../../shared/domain/files';
import { LOGO_KINDS, LOGO_MAX_BYTES } from '../../../../../shared/domain/tenantSettings';
import { errorMessageKey } from '../../../api/errorMessages';
import { queryKeys } from '../../../api/queryKeys';
import { deleteTenantLogo, saveTenantSettings, uploadTenantLogo, useTenantSettings } from '../../../api/tenantSettings';
import { bodySchemaOf, focusFirstError, zodResolver } from '../../../components/forms/zodResolver';
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
    queryClient.setQueryData(queryKeys.tenantSettings, saved);
    queryClient.setQueryData(queryKeys.tenant, (tenant: Tenant | undefined) =>
      tenant && { ...tenant, tenant_name: saved.tenant_name, logo_url: saved.logo_url, manual_url: saved.manual_url },
    );
  };
}

function LogoField({ settings }: { settings: TenantSettings }) {
  const { t } = useTranslation('tenantSettings');
  const saved = useSettingsSaved();
  const onError = (error: unknown, endpoint: typeof adminTenantSettingsApi.uploadTenantLogo | typeof adminTenantSettingsApi.deleteTenantLogo) =>
    showToast('error', t(errorMessageKey(error, endpoint)));
  const upload = useMutation({
    mutationFn: uploadTenantLogo,
    onSuccess: (result) => {
      saved(result);
      showToast('success', t('branding.logo_saved'));
    },
    onError: (error) => onError(error, adminTenantSettingsApi.uploadTenantLogo),
  });
  const remove = useMutation({
    mutationFn: deleteTenantLogo,
    onSuccess: (result) => {
      saved(result);
      showToast('success', t('branding.logo_removed'));
    },
    onError: (error) => onError(error, adminTenantSettingsApi.deleteTenantLogo),
  });

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
          {settings.logo_url ? (
            <Image src={settings.logo_url} alt={t('branding.logo_alt', { name: settings.tenant_name })} h={48} w="auto" maw={180} fit="contain" />
          ) : (
            <Text size="xs" c="dimmed">
              {t('branding.no_logo')}
            </Text>
          )}
        </Center>
        <Group gap="xs">
          <FileButton onChange={choose} accept={acceptAttribute(LOGO_KINDS)}>
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconImage size={16} />} loading={upload.isPending} aria-describedby="logo-hint" data-testid="logo-upload">
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
    validate: (values) => zodResolver(patchSchema, { support_email: 'tenantSettings:branding.email_invalid', manual_url: 'tenantSettings:branding.url_invalid' })(toBody(values)),
  });
  const save = useMutation({
    mutationFn: (values: BrandingValues) => saveTenantSettings(toBody(values)),
    onSuccess: (result) => {
      saved(result);
      form.resetDirty(toValues(result));
      form.setValues(toValues(result));
      showToast('success', t('branding.saved'));
    },
    onError: (error) => showToast('error', t(errorMessageKey(error, adminTenantSettingsApi.updateTenantSettings))),
  });
  const error = (path: keyof BrandingValues) => {
    const key = form.errors[path];
    return key ? t(String(key).startsWith('validation.') ? `common:${String(key)}` : String(key)) : undefined;
  };
  return (
    <form noValidate onSubmit={form.onSubmit((values) => save.mutate(values), (errors) => focusFirstError(form, errors))}>
      <Stack gap="md">
        <TextInput label={t('branding.name')} withAsterisk {...form.getInputProps('tenant_name')} error={error('tenant_name')} data-testid="tenant-name-input" />
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
  const settings = useTenantSettings();
  return (
    <SettingsFormCard id="branding-title" title={t('branding.title')} description={t('branding.description')} query={settings} endpoint={adminTenantSettingsApi.getTenantSettings} skeletonHeight={260}>
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
