import { Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../../../shared/api';
import type { BilingualName } from '../../../../../shared/domain/language';
import { formErrorText } from '../../../components/forms/zodResolver';

/** Which of the two names the server found in use (`details.field`); the Korean one when it does not say. */
export function takenName(error: unknown): keyof BilingualName {
  const details = (isApiError(error) ? error.body?.details : undefined) as { field?: unknown } | undefined;
  return details?.field === 'en_name' ? 'en_name' : 'ko_name';
}

/**
 * A settings dialog's Korean and English name inputs under the rule "one of the two is enough"
 * (docs/decisions/0024-bilingual-names-fields-modes.md). Errors are `validation.…` keys of common or of
 * this screen, or messages already translated.
 */
export function BilingualNameInputs<V extends BilingualName>({ form, id }: { form: UseFormReturnType<V>; id: string }) {
  const { t } = useTranslation('tenantSettings');
  const hintId = `${id}-names-hint`;
  return (
    <>
      <Text size="sm" c="dimmed" id={hintId}>
        {t('names_hint')}
      </Text>
      <TextInput
        label={t('ko_name')}
        aria-describedby={hintId}
        data-autofocus
        {...form.getInputProps('ko_name')}
        error={formErrorText(form.errors.ko_name)}
        data-testid={`${id}-ko-name-input`}
      />
      <TextInput
        label={t('en_name')}
        aria-describedby={hintId}
        {...form.getInputProps('en_name')}
        error={formErrorText(form.errors.en_name)}
        data-testid={`${id}-en-name-input`}
      />
    </>
  );
}
