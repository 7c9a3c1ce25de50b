import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Center, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router-dom';
import { apiBaseProblem, apiBaseSchema, subdomainSchema } from '../../../../shared/ipc/contract';
import { getTenant } from '../../api/tenant';
import { LanguageMenu } from '../../components/LanguageMenu';
import { MAIN_CONTENT_ID } from '../../components/mainContent';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { getPlatform } from '../../platform';
import { reloadApp } from './reloadApp';

interface FieldErrors {
  /** Why main would refuse the address: anything malformed, or http to another machine. */
  apiBase: 'invalid' | 'insecure' | null;
  subdomain: boolean;
}

/**
 * Desktop first run (and later changes): which server and which workspace the app talks to. Main
 * opens this route until the connection is confirmed; saving checks that the server answers for the
 * workspace and then reloads the app, so the session is resumed for the new server and workspace.
 */
export default function ServerSetupPage() {
  const { t } = useTranslation('desktop');
  const platform = getPlatform();
  const [apiBase, setApiBase] = useState('');
  const [subdomain, setSubdomain] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({ apiBase: null, subdomain: false });
  const [failure, setFailure] = useState<'save_failed' | 'unreachable' | null>(null);
  const [saving, setSaving] = useState(false);
  useDocumentTitle(t('setup_title'));

  useEffect(() => {
    if (platform.kind !== 'desktop') return;
    void platform.settings.get().then((current) => {
      setApiBase(current.apiBase);
      setSubdomain(current.subdomain ?? '');
    });
  }, [platform]);

  if (platform.kind !== 'desktop') return <Navigate to="/" replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const base = apiBaseSchema.safeParse(apiBase);
    const workspace = subdomain.trim() === '' ? null : subdomainSchema.safeParse(subdomain);
    setFieldErrors({ apiBase: base.success ? null : (apiBaseProblem(apiBase.trim()) ?? 'invalid'), subdomain: workspace !== null && !workspace.success });
    setFailure(null);
    if (!base.success || (workspace && !workspace.success)) return;
    setSaving(true);
    try {
      await platform.settings.set({ apiBase: base.data, subdomain: workspace?.data ?? null });
    } catch {
      setFailure('save_failed');
      setSaving(false);
      return;
    }
    try {
      await getTenant();
      reloadApp('/dashboard/chat');
    } catch {
      setFailure('unreachable');
      setSaving(false);
    }
  }

  return (
    <Box mih="100vh" bg="gray.0">
      <Group justify="flex-end" p="md">
        <LanguageMenu />
      </Group>
      <Center component="main" id={MAIN_CONTENT_ID} tabIndex={-1} px="md" pb={80} pt={24}>
        <Paper component="form" onSubmit={(event) => void submit(event)} noValidate w="100%" maw={480} p={36} radius="lg" shadow="md" withBorder>
          <Stack gap="lg">
            <Stack gap={8}>
              <Title order={1} size="h2">
                {t('setup_title')}
              </Title>
              <Text c="dimmed" size="sm">
                {t('setup_subtitle')}
              </Text>
            </Stack>
            {failure && (
              <Alert color="red" variant="light" role="alert">
                {t(failure)}
              </Alert>
            )}
            <TextInput
              label={t('api_base')}
              placeholder={t('api_base_placeholder')}
              value={apiBase}
              onChange={(event) => setApiBase(event.currentTarget.value)}
              error={fieldErrors.apiBase && t(fieldErrors.apiBase === 'insecure' ? 'api_base_insecure' : 'api_base_invalid')}
              autoComplete="url"
              size="md"
            />
            <TextInput
              label={t('subdomain')}
              description={t('subdomain_hint')}
              value={subdomain}
              onChange={(event) => setSubdomain(event.currentTarget.value)}
              error={fieldErrors.subdomain && t('subdomain_invalid')}
              size="md"
            />
            <Button type="submit" size="md" loading={saving} fullWidth>
              {t('save')}
            </Button>
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
