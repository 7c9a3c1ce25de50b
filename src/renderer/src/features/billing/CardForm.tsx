import { Alert, Button, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { billingApi } from '../../../../shared/api';
import type { BillingPlan } from '../../../../shared/api/billing';
import { DEMO_TEST_CARDS, cardDigits } from '../../../../shared/domain/billing';
import { errorMessageKey } from '../../api/errorMessages';
import { useEndpointMutation } from '../../api/endpointHooks';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { maskCardNumber, maskExpiry } from './cardMasks';
import { formatKrw, planName } from './format';
import { messageText } from '../../i18n/keys';

/** The form's fields, each with its message (`card.invalid_<field>`) when the contract refuses it. */
const CARD_FIELDS = ['card_number', 'expiry', 'cvc'] as const;
const isCardField = (path: PropertyKey | undefined): path is (typeof CARD_FIELDS)[number] => CARD_FIELDS.some((field) => field === path);

interface CardFormProps {
  plan: BillingPlan | null;
  onClose: () => void;
  onSubscribed: () => void;
}

/**
 * The demo provider's card form: the number goes to our server once, which tokenises it and keeps
 * only the masked number. Validated with the contract's schema before it is sent.
 */
export function CardForm({ plan, onClose, onSubscribed }: CardFormProps) {
  const { t } = useTranslation('billing');
  // The form lives inside the modal, which unmounts it when it closes: each opening starts empty,
  // without the card or the error of the last attempt.
  return (
    <Modal opened={plan !== null} onClose={onClose} title={<Text fw={650}>{t('card.title')}</Text>} size="md">
      {plan && <CardFormBody key={plan.id} plan={plan} onClose={onClose} onSubscribed={onSubscribed} />}
    </Modal>
  );
}

function CardFormBody({ plan, onClose, onSubscribed }: CardFormProps & { plan: BillingPlan }) {
  const { t } = useTranslation('billing');
  const language = useResolvedLanguage();
  // The refusal is said in the form, next to the card.
  const pay = useEndpointMutation(billingApi.registerCardAndSubscribe, { errorToast: false, onSuccess: onSubscribed });
  const error = pay.error && messageText(errorMessageKey(pay.error, billingApi.registerCardAndSubscribe));
  const form = useForm({
    mode: 'controlled',
    initialValues: { card_number: '', expiry: '', cvc: '' },
    validate: (values) => {
      const parsed = billingApi.providerResultSchema.safeParse({ provider: 'demo', ...values });
      if (parsed.success) return {};
      const fields: Record<string, string> = {};
      for (const {
        path: [field],
      } of parsed.error.issues)
        if (isCardField(field)) fields[field] ??= t(`card.invalid_${field}`);
      return fields;
    },
  });

  function submit(values: { card_number: string; expiry: string; cvc: string }) {
    pay.mutate({ params: { planId: plan.id }, query: {}, body: { provider: 'demo', ...values, card_number: cardDigits(values.card_number) } });
  }

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="sm">
        <Text size="sm">{t('card.summary', { plan: planName(plan, language), price: formatKrw(plan.krw_month_price, language) })}</Text>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <TextInput
          label={t('card.number')}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          {...form.getInputProps('card_number')}
          onChange={(event) => form.setFieldValue('card_number', maskCardNumber(form.values.card_number, event.currentTarget.value))}
          data-testid="card-number"
        />
        <SimpleGrid cols={2}>
          <TextInput
            label={t('card.expiry')}
            placeholder="MM/YY"
            autoComplete="cc-exp"
            inputMode="numeric"
            {...form.getInputProps('expiry')}
            onChange={(event) => form.setFieldValue('expiry', maskExpiry(form.values.expiry, event.currentTarget.value))}
            data-testid="card-expiry"
          />
          <TextInput label={t('card.cvc')} autoComplete="cc-csc" inputMode="numeric" maxLength={4} {...form.getInputProps('cvc')} data-testid="card-cvc" />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('card.demo_hint', { approved: maskCardNumber('', DEMO_TEST_CARDS.approved), declined: maskCardNumber('', DEMO_TEST_CARDS.declined) })}
        </Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={pay.isPending} data-testid="card-pay">
            {t('card.pay', { price: formatKrw(plan.krw_month_price, language) })}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
