import { useState } from 'react';
import { Alert, Button, Card, FileButton, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { adminSsoWhitelistApi } from '../../../../../shared/api';
import { SSO_WHITELIST_FILE_MAX_BYTES, parseWhitelistEmails } from '../../../../../shared/domain/ssoWhitelist';
import { upsertWhitelist } from '../../../api/ssoWhitelist';
import { useEndpointMutation } from '../../../api/endpointHooks';
import { IconFileText } from '../../../components/icons';
import { showToast } from '../../../components/toast';

/**
 * Adding emails (spec §5 "Whitelist upload"): pasted text or a CSV/TXT file, checked here first so
 * the admin sees how many emails were found, "No valid emails found.", or how many addresses are
 * invalid, before anything is sent; then sent in batches.
 */
export function WhitelistUploadCard({ onAdded }: { onAdded: () => void }) {
  const { t } = useTranslation('ssoWhitelist');
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const parsed = parseWhitelistEmails(text);
  const hasInput = text.trim() !== '';

  const upload = useEndpointMutation(adminSsoWhitelistApi.bulkUpsertSsoWhitelist, {
    send: (emails: string[]) => upsertWhitelist(emails),
    onSuccess: (result) => {
      showToast('success', t('added', { added: result.added, existing: result.existing }));
      setText('');
      setFileName(null);
      onAdded();
    },
  });

  const readFile = async (file: File | null) => {
    setFileError(null);
    if (!file) return;
    if (!/\.(csv|txt)$/i.test(file.name)) return setFileError(t('file_type'));
    if (file.size > SSO_WHITELIST_FILE_MAX_BYTES) return setFileError(t('file_too_large'));
    setFileName(file.name);
    setText(await file.text());
  };

  let check = null;
  if (hasInput) {
    if (parsed.emails.length === 0) check = <Alert color="red">{t('none_found')}</Alert>;
    else
      check = (
        <Alert color={parsed.invalid.length ? 'yellow' : 'green'} data-testid="whitelist-check">
          <Text size="sm">{t('found', { count: parsed.emails.length })}</Text>
          {parsed.invalid.length > 0 && (
            <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
              {t('invalid', { count: parsed.invalid.length, examples: parsed.invalid.slice(0, 3).join(', ') })}
            </Text>
          )}
        </Alert>
      );
  }

  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="whitelist-upload-title" mb="lg">
      <Title order={2} size="h4" id="whitelist-upload-title" mb="xs">
        {t('upload_title')}
      </Title>
      <Stack gap="sm">
        <Textarea
          label={t('paste_label')}
          description={t('paste_hint')}
          autosize
          minRows={3}
          maxRows={10}
          value={text}
          onChange={(event) => {
            setFileName(null);
            setText(event.currentTarget.value);
          }}
          data-testid="whitelist-text"
        />
        <Group gap="sm">
          <FileButton onChange={(file) => void readFile(file)} accept=".csv,.txt,text/csv,text/plain">
            {(props) => (
              <Button variant="default" leftSection={<IconFileText size={16} />} {...props}>
                {t('choose_file')}
              </Button>
            )}
          </FileButton>
          {fileName && (
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {fileName}
            </Text>
          )}
        </Group>
        {fileError && (
          <Text size="sm" c="red" role="alert">
            {fileError}
          </Text>
        )}
        {check}
        <Group justify="flex-end">
          <Button onClick={() => upload.mutate(parsed.emails)} disabled={parsed.emails.length === 0} loading={upload.isPending} data-testid="whitelist-add">
            {parsed.emails.length ? t('add', { count: parsed.emails.length }) : t('add_none')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
