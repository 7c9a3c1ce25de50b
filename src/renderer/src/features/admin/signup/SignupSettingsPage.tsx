import { Button, Card, Checkbox, Group, Radio, Skeleton, Stack, Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AdminPageFrame } from '../AdminPageFrame';
import { adminSignupSettingsApi, signupApi, type SignupSettings } from '../../../../../shared/api';
import { SIGNUP_APPROVALS, VERIFICATION_METHODS } from '../../../../../shared/domain/signup';
import { signupFormKey } from '../../../api/signup';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { bodySchemaOf, zodResolver } from '../../../components/forms/zodResolver';
import { showToast } from '../../../components/toast';

const patchSchema = bodySchemaOf(adminSignupSettingsApi.updateSignupSettings);
function SettingsForm({ initial }: { initial: SignupSettings }) {
  const { t } = useTranslation('signup');
  const queryClient = useQueryClient();
  const form = useForm<SignupSettings>({ mode: 'controlled', initialValues: initial, validate: zodResolver(patchSchema) });
  const save = useEndpointMutation(adminSignupSettingsApi.updateSignupSettings, {
    errorToast: { overrides: [{ key: 'signup:admin.save_failed' }] },
    onSuccess: (saved) => {
      queryClient.setQueryData(endpointKey(signupApi.getSignupSettings), saved);
      void queryClient.invalidateQueries({ queryKey: signupFormKey });
      form.resetDirty(form.values);
      showToast('success', t('admin.saved'));
    },
  });
  return (
    <form noValidate onSubmit={form.onSubmit((values) => save.mutate({ body: values }))}>
      <Stack gap="lg">
        <Switch label={t('admin.open')} description={t('admin.open_hint')} {...form.getInputProps('signup_open', { type: 'checkbox' })} />
        <Switch label={t('admin.sso_only')} description={t('admin.sso_only_hint')} {...form.getInputProps('sso_only', { type: 'checkbox' })} />
        <Switch
          label={t('admin.group_change_approval')}
          description={t('admin.group_change_approval_hint')}
          {...form.getInputProps('group_change_approval', { type: 'checkbox' })}
        />
        <Switch
          label={t('admin.sso_whitelist_only')}
          description={t('admin.sso_whitelist_only_hint')}
          {...form.getInputProps('sso_whitelist_only', { type: 'checkbox' })}
        />
        <Radio.Group label={t('admin.approval')} {...form.getInputProps('approval')}>
          <Stack gap="xs" mt={6}>
            {SIGNUP_APPROVALS.map((approval) => (
              <Radio key={approval} value={approval} label={t(`admin.approval_${approval}`)} />
            ))}
          </Stack>
        </Radio.Group>
        <Checkbox.Group
          label={t('admin.methods')}
          {...form.getInputProps('verification_methods')}
          error={form.errors.verification_methods && t('admin.methods_required')}
        >
          <Group mt={6}>
            {VERIFICATION_METHODS.map((method) => (
              <Checkbox key={method} value={method} label={t(`method.${method}`)} />
            ))}
          </Group>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Admin console: the tenant settings that drive sign-up (docs/ARCHITECTURE.md "Sign-up"). */
export default function SignupSettingsPage() {
  const { t } = useTranslation('signup');
  const settings = useEndpointQuery(signupApi.getSignupSettings, {}, { errorToast: true });
  return (
    <AdminPageFrame title={t('admin.title')} description={t('admin.description')} maw={960}>
      <Card withBorder radius="lg" padding="lg">
        {settings.data ? <SettingsForm initial={settings.data} /> : <Skeleton h={260} />}
      </Card>
    </AdminPageFrame>
  );
}
