import { Alert, Anchor, Button, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { membersApi } from '../../../../shared/api';
import { errorMessageKey } from '../../api/errorMessages';
import { useEndpointMutation, useEndpointQuery } from '../../api/endpointHooks';
import { LanguageMenu } from '../../components/LanguageMenu';
import { PageFrame } from '../../components/PageFrame';
import { useUserSession } from '../../stores/userSession';
import { CREDITS_PATH, CreditUsageIndicator } from '../credits/CreditUsageIndicator';
import { ChangePasswordForm } from './ChangePasswordForm';
import { CustomFieldsSection } from './CustomFieldsSection';
import { GroupsSection } from './GroupsSection';
import { PromptsSection } from './PromptsSection';
import { WorkspacePlanSection } from './WorkspacePlanSection';
import { useSsoPlatforms } from '../../api/ssoPlatforms';
import { SsoAccountSection } from '../sso/SsoAccountSection';
import { messageText } from '../../i18n/keys';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Paper component="section" withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** The name form: 2–100 characters (spec §5), saved on the member record. */
function NameForm() {
  const { t } = useTranslation('account');
  const member = useUserSession((state) => state.member);
  const setMember = useUserSession((state) => state.setMember);
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: member?.name ?? '' },
    validate: { name: (value: string) => (value.trim().length >= 2 && value.trim().length <= 100 ? null : t('my_page.name_rule')) },
  });
  // The outcome is said above the form, not in a toast.
  const save = useEndpointMutation(membersApi.patchMember, { errorToast: false, onSuccess: setMember });
  const outcome = save.isSuccess
    ? { ok: true, message: t('my_page.name_saved') }
    : save.isError
      ? { ok: false, message: messageText(errorMessageKey(save.error, membersApi.patchMember)) }
      : null;
  if (!member) return null;

  function submit({ name }: { name: string }) {
    if (!member) return;
    save.mutate({ params: { id: member.id }, body: { name: name.trim() } });
  }

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="sm" maw={420}>
        {outcome && (
          <Alert color={outcome.ok ? 'green' : 'red'} variant="light" role={outcome.ok ? 'status' : 'alert'}>
            {outcome.message}
          </Alert>
        )}
        <TextInput label={t('my_page.name')} autoComplete="name" {...form.getInputProps('name')} data-testid="my-page-name" />
        <div>
          <Text size="sm" fw={500}>
            {t('email')}
          </Text>
          <Text size="sm" c="dimmed" data-testid="my-page-email">
            {member.email}
          </Text>
        </div>
        <Button type="submit" loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
          {t('my_page.save_name')}
        </Button>
      </Stack>
    </form>
  );
}

/** The member's custom fields, read fresh: an admin may have added or changed fields since sign-in. */
function AdditionalInformation({ memberId }: { memberId: number }) {
  const { t } = useTranslation('account');
  const member = useEndpointQuery(membersApi.getMember, { params: { id: memberId } }, { errorToast: true });
  if (member.data?.custom_fields.length === 0) return null;
  return (
    <Section title={t('custom_fields.title')}>
      {member.data ? <CustomFieldsSection fields={member.data.custom_fields} /> : <Skeleton h={80} maw={420} />}
    </Section>
  );
}

/** Route /dashboard/my-page (spec §2 "my page"): profile, custom fields, language, password, groups, own prompts and credit usage. */
export default function MyPage() {
  const { t } = useTranslation(['account', 'sso', 'creditsPage', 'prompts']);
  const memberId = useUserSession((state) => state.member?.id);
  const hasPassword = useUserSession((state) => state.member?.has_password ?? true);
  const hasSso = (useSsoPlatforms().data?.items.length ?? 0) > 0;
  return (
    <PageFrame title={t('my_page.title')} description={t('my_page.description')}>
      <Stack gap="lg" maw={720}>
        <Section title={t('my_page.profile')}>
          <NameForm />
        </Section>
        {memberId !== undefined && <AdditionalInformation memberId={memberId} />}
        <Section title={t('my_page.language')}>
          <Group>
            <LanguageMenu />
          </Group>
        </Section>
        {/* Members who only ever signed in through SSO have no password to change. */}
        {hasPassword && (
          <Section title={t('change_password.title')}>
            <ChangePasswordForm />
          </Section>
        )}
        {hasSso && (
          <Section title={t('sso:account_title')}>
            <SsoAccountSection />
          </Section>
        )}
        {memberId !== undefined && (
          <Section title={t('my_page.groups')}>
            <GroupsSection memberId={memberId} />
          </Section>
        )}
        <Section title={t('prompts:my.title')}>
          <PromptsSection />
        </Section>
        <Section title={t('workspace.title')}>
          <WorkspacePlanSection />
        </Section>
        <Section title={t('my_page.usage')}>
          <Stack gap="xs" maw={420}>
            <Text size="sm" c="dimmed">
              {t('my_page.usage_hint')}
            </Text>
            <CreditUsageIndicator />
            <Anchor component={Link} to={CREDITS_PATH} size="sm" data-testid="my-page-credits-link">
              {t('creditsPage:details')}
            </Anchor>
          </Stack>
        </Section>
      </Stack>
    </PageFrame>
  );
}
