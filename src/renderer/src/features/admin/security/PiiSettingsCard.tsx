import { useId } from 'react';
import { Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminSecurityApi, piiSettingsApi } from '../../../../../shared/api';
import { PII_ACTIONS, PII_KINDS, type PiiKind, type PiiSettings } from '../../../../../shared/domain/pii';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { bodySchemaOf, zodResolver } from '../../../components/forms/zodResolver';
import { showToast } from '../../../components/toast';
import { FormSaveButton, SettingsFormCard } from '../SettingsCards';

const patchSchema = bodySchemaOf(adminSecurityApi.patchPiiSettings);

function PiiKindRow({ kind, value, onChange }: { kind: PiiKind; value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation('security');
  const labelId = useId();
  const hintId = useId();
  // Only the international number needs its format shown (the others say their digit count).
  const hint = kind === 'international_phone' ? t('pii.international_phone_hint') : null;
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <div>
        <Text id={labelId} size="sm" fw={500}>
          {t(`pii.${kind}`)}
        </Text>
        {hint && (
          <Text id={hintId} size="xs" c="dimmed">
            {hint}
          </Text>
        )}
      </div>
      <SegmentedControl
        aria-labelledby={labelId}
        aria-describedby={hint ? hintId : undefined}
        data-testid={`pii-${kind}`}
        value={value}
        onChange={onChange}
        color={value === 'block' ? 'red' : value === 'mask' ? 'indigo' : undefined}
        data={PII_ACTIONS.map((action) => ({ value: action, label: t(`pii.${action}`) }))}
      />
    </Group>
  );
}

function PiiSettingsForm({ initial }: { initial: PiiSettings }) {
  const { t } = useTranslation('security');
  const queryClient = useQueryClient();
  const form = useForm<PiiSettings>({ mode: 'controlled', initialValues: initial, validate: zodResolver(patchSchema) });
  const save = useEndpointMutation(adminSecurityApi.patchPiiSettings, {
    invalidates: [piiSettingsApi.getPiiSettings],
    errorToast: { overrides: [{ key: 'security:pii.save_failed' }] },
    onSuccess: (saved) => {
      queryClient.setQueryData(endpointKey(adminSecurityApi.getAdminPiiSettings), saved);
      form.resetDirty(saved);
      showToast('success', t('pii.saved'));
    },
  });
  return (
    <form noValidate onSubmit={form.onSubmit((values) => save.mutate({ body: values }))}>
      <Stack gap="md">
        {PII_KINDS.map((kind) => (
          <PiiKindRow key={kind} kind={kind} value={form.values[kind]} onChange={(value) => form.setFieldValue(kind, value as PiiSettings[PiiKind])} />
        ))}
        <FormSaveButton label={t('pii.save')} dirty={form.isDirty()} loading={save.isPending} />
      </Stack>
    </form>
  );
}

/** Off, block or mask for each kind of personal data (spec §3 PII options), saved together. */
export function PiiSettingsCard() {
  const { t } = useTranslation('security');
  const settings = useEndpointQuery(adminSecurityApi.getAdminPiiSettings, {}, { errorToast: true });
  return (
    <SettingsFormCard id="pii-settings-title" title={t('pii.title')} description={t('pii.description')} query={settings} skeletonHeight={180}>
      {(initial) => <PiiSettingsForm initial={initial} />}
    </SettingsFormCard>
  );
}
