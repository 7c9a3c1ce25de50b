import { Button, Card, Group, NumberInput, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminTenantSettingsApi, tenantsApi, type Tenant, type TenantSettings } from '../../../../../shared/api';
import { passwordMinLengthSchema } from '../../../../../shared/api/admin/tenantSettings';
import { PASSWORD_MIN, PASSWORD_MIN_LENGTH_MAX } from '../../../../../shared/domain/account';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { focusFirstError, formErrorText } from '../../../components/forms/zodResolver';
import { showToast } from '../../../components/toast';

interface Values {
  password_min_length: number | string;
}

function PasswordRulesForm({ settings }: { settings: TenantSettings }) {
  const { t } = useTranslation('tenantSettings');
  const queryClient = useQueryClient();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { password_min_length: settings.password_min_length },
    // The contract's own rule (8 to 64, a whole number), as the server checks it.
    validate: { password_min_length: (value) => (passwordMinLengthSchema.safeParse(value).success ? null : 'tenantSettings:passwords.invalid') },
  });
  const save = useEndpointMutation(adminTenantSettingsApi.updateTenantSettings, {
    onSuccess: (saved) => {
      queryClient.setQueryData(endpointKey(adminTenantSettingsApi.getTenantSettings), saved);
      // The password forms of this browser read the tenant's rule from GET /tenants/.
      queryClient.setQueryData(
        endpointKey(tenantsApi.getTenant),
        (tenant: Tenant | undefined) => tenant && { ...tenant, password_min_length: saved.password_min_length },
      );
      form.resetDirty({ password_min_length: saved.password_min_length });
      form.setValues({ password_min_length: saved.password_min_length });
      showToast('success', t('passwords.saved'));
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(
        (values) => save.mutate({ body: { password_min_length: Number(values.password_min_length) } }),
        (errors) => focusFirstError(form, errors),
      )}
    >
      <Stack gap="md">
        <NumberInput
          label={t('passwords.min_length')}
          description={t('passwords.min_length_hint')}
          min={PASSWORD_MIN}
          max={PASSWORD_MIN_LENGTH_MAX}
          step={1}
          allowDecimal={false}
          clampBehavior="none"
          allowNegative={false}
          maw={320}
          {...form.getInputProps('password_min_length')}
          error={formErrorText(form.errors.password_min_length)}
          data-testid="password-min-length-input"
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
            {t('passwords.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The tenant's password rule: the minimum length of new passwords (spec §5's 8 or more). */
export function PasswordRulesCard() {
  const { t } = useTranslation('tenantSettings');
  const settings = useEndpointQuery(adminTenantSettingsApi.getTenantSettings, {}, { errorToast: true });
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="password-rules-title" data-testid="password-rules-card">
      <Title order={2} size="h4" id="password-rules-title">
        {t('passwords.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('passwords.description')}
      </Text>
      {settings.data ? <PasswordRulesForm settings={settings.data} /> : <Skeleton h={120} />}
    </Card>
  );
}
