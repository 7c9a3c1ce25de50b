import { Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { inquiriesApi } from '../../../../shared/api';
import { useEndpointMutation } from '../../api/endpointHooks';
import { bodySchemaOf, focusFirstError, formErrorText, zodResolver } from '../../components/forms/zodResolver';
import { showToast } from '../../components/toast';
import { useUserSession } from '../../stores/userSession';

const inquirySchema = bodySchemaOf(inquiriesApi.sendInquiry);

/** The contact modal (spec §2): inquiry, reply email (the member's by default) and an optional phone. */
export function ContactModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('contact');
  const email = useUserSession((state) => state.member?.email ?? '');
  const form = useForm({
    mode: 'controlled',
    initialValues: { inquiry: '', email, phone: '' },
    validate: zodResolver(inquirySchema, { phone: 'contact:phone_invalid', email: 'validation.email_invalid' }),
  });
  const send = useEndpointMutation(inquiriesApi.sendInquiry, {
    onSuccess: () => {
      showToast('success', t('sent'));
      form.reset();
      onClose();
    },
  });
  const errorText = (field: 'inquiry' | 'email' | 'phone') => formErrorText(form.errors[field]);
  return (
    <Modal opened={opened} onClose={onClose} title={t('title')} closeButtonProps={{ 'aria-label': t('close') }} size="lg">
      <form
        noValidate
        onSubmit={form.onSubmit(
          (values) => send.mutate({ body: { ...values, phone: values.phone.trim() || undefined } }),
          (errors) => focusFirstError(form, errors),
        )}
        data-testid="contact-form"
      >
        <Stack gap="sm">
          <Textarea
            label={t('inquiry')}
            autosize
            minRows={4}
            maxRows={10}
            required
            data-autofocus
            {...form.getInputProps('inquiry')}
            error={errorText('inquiry')}
          />
          <TextInput label={t('email')} type="email" required autoComplete="email" {...form.getInputProps('email')} error={errorText('email')} />
          <TextInput
            label={t('phone')}
            type="tel"
            autoComplete="tel"
            description={t('phone_hint')}
            {...form.getInputProps('phone')}
            error={errorText('phone')}
          />
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={send.isPending}>
              {t('send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
