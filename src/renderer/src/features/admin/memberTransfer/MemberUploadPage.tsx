import { type DragEvent, useState } from 'react';
import { Alert, Box, Button, Card, FileButton, Group, Progress, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { adminMemberTransferApi } from '../../../../../shared/api';
import { type MemberUploadFailedRow, memberUploadResultSchema } from '../../../../../shared/api/admin/memberTransfer';
import { MEMBER_FILE_FORMATS, MEMBER_UPLOAD_MAX_BYTES, MEMBER_UPLOAD_MAX_ROWS, type MemberFileFormat } from '../../../../../shared/domain/memberTransfer';
import { errorMessageKey, errorMessageValues } from '../../../api/errorMessages';
import { sendRaw } from '../../../api/client';
import { useEndpointMutation } from '../../../api/endpointHooks';
import { IconDownload, IconUpload } from '../../../components/icons';
import { saveBlob } from '../../../components/saveBlob';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { AdminPageFrame } from '../AdminPageFrame';
import { MemberExportButton } from './MemberExportButton';
import { TaskProgress } from './TaskProgress';
import { useTask } from './useTask';
import classes from './memberTransfer.module.css';
import { messageText } from '../../../i18n/keys';

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const LIMITS = { rows: MEMBER_UPLOAD_MAX_ROWS.toLocaleString(), size: MEMBER_UPLOAD_MAX_BYTES / 1024 / 1024 };

function TemplateCard() {
  const { t } = useTranslation('memberTransfer');
  const download = useEndpointMutation(adminMemberTransferApi.downloadMemberUploadTemplate, {
    errorToast: { overrides: [{ key: 'memberTransfer:upload.template_failed' }] },
    send: async (format: MemberFileFormat) => {
      const endpoint = adminMemberTransferApi.downloadMemberUploadTemplate;
      return (await sendRaw(endpoint, `${endpoint.path}?format=${format}`)).blob();
    },
    onSuccess: (blob, format) => saveBlob(blob, `member-upload-template.${format}`),
  });
  return (
    <Card withBorder padding="lg" radius="md">
      <Title order={2} size="h4" mb={4}>
        {t('upload.template_title')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('upload.template_hint')}
      </Text>
      <Group gap="sm">
        {MEMBER_FILE_FORMATS.map((format) => (
          <Button
            key={format}
            variant="default"
            leftSection={<IconDownload size={16} />}
            loading={download.isPending && download.variables === format}
            onClick={() => download.mutate(format)}
          >
            {t(`upload.template_${format}`)}
          </Button>
        ))}
      </Group>
    </Card>
  );
}

function FailedRowsTable({ rows }: { rows: MemberUploadFailedRow[] }) {
  const { t } = useTranslation('memberTransfer');
  return (
    <Box>
      <Title order={3} size="h5" mb="xs">
        {t('upload.failed_rows')}
      </Title>
      <ScrollArea.Autosize mah={420} type="auto">
        <Table striped stickyHeader data-testid="failed-rows">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('upload.row')}</Table.Th>
              <Table.Th scope="col">{t('upload.email')}</Table.Th>
              <Table.Th scope="col">{t('upload.reason')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={`${row.row}-${row.reason}`}>
                <Table.Td>{row.row}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{row.email || '—'}</Table.Td>
                <Table.Td>{t(`upload.reasons.${row.reason}`, { field: row.field ?? '' })}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Box>
  );
}

const OUTCOME_COLOR = { success: 'teal', warning: 'yellow', error: 'red' } as const;

/** The upload task, from its first progress to its result (spec §4 "Bulk upload"). */
function UploadStatus({ taskId, onAnother }: { taskId: number; onAnother: () => void }) {
  const { t } = useTranslation('memberTransfer');
  const task = useTask(taskId);
  if (task.isError)
    return (
      <Alert color="red" role="alert">
        {t('upload.task_missing')}
      </Alert>
    );
  if (!task.data || task.data.status === 'running') {
    return task.data ? (
      <TaskProgress task={task.data} label={t('upload.processing')} unitKey="upload.progress" />
    ) : (
      <Progress value={0} aria-label={t('upload.processing')} />
    );
  }
  const parsed = memberUploadResultSchema.safeParse(task.data.result);
  return (
    <Stack>
      {task.data.status === 'failed' || !parsed.success ? (
        <Alert color="red" variant="light" role="alert" data-testid="upload-outcome">
          {t(task.data.error_code === 'invitation_limit_reached' ? 'upload.limit_reached' : 'upload.task_failed')}
        </Alert>
      ) : (
        <>
          <Alert color={OUTCOME_COLOR[parsed.data.outcome]} variant="light" role="status" data-testid="upload-outcome">
            <Group gap="xs">
              <Text size="sm" fw={700}>
                {t(`upload.outcome.${parsed.data.outcome}`)}
              </Text>
              <Text size="sm">
                {t(`upload.result.${parsed.data.outcome}`, { total: parsed.data.total, invited: parsed.data.invited, failed: parsed.data.failed.length })}
              </Text>
            </Group>
          </Alert>
          {parsed.data.failed.length > 0 && <FailedRowsTable rows={parsed.data.failed} />}
        </>
      )}
      <Group>
        <Button variant="default" onClick={onAnother}>
          {t('upload.another')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * /admin/members/upload: template download, then a CSV or XLSX file dropped or chosen, sent, and
 * processed by a background task whose progress and per-row result show here. The task id is kept
 * in the URL (`task`), so a reload finds the upload again.
 */
export default function MemberUploadPage() {
  const { t } = useTranslation('memberTransfer');
  const language = useResolvedLanguage();
  const [params, setParams] = useSearchParams();
  const taskId = Number(params.get('task')) || null;
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setError(null);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0] ?? null);
  };
  // A refused file is said under the drop zone, not in a toast.
  const upload = useEndpointMutation(adminMemberTransferApi.uploadMembers, {
    errorToast: false,
    // At most a few MB: no transfer progress.
    send: async (chosen: File) => {
      const endpoint = adminMemberTransferApi.uploadMembers;
      const form = new FormData();
      form.append(adminMemberTransferApi.MEMBER_UPLOAD_FIELD, chosen, chosen.name);
      return endpoint.response.parse(await (await sendRaw(endpoint, endpoint.path, { body: form })).json());
    },
    onMutate: () => setError(null),
    onSuccess: (task) => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set('task', String(task.id));
        return next;
      });
      setFile(null);
    },
    onError: (caught) =>
      setError(messageText(errorMessageKey(caught, adminMemberTransferApi.uploadMembers), { ...errorMessageValues(caught, language), ...LIMITS })),
  });
  const another = () =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.delete('task');
      return next;
    });

  return (
    <AdminPageFrame title={t('upload.title')} description={t('upload.description')} maw={960}>
      <Stack gap="lg">
        {/* Exporting first lets an admin see who is already a member; the members page header carries it too. */}
        <Group justify="flex-end">
          <MemberExportButton />
        </Group>
        <TemplateCard />
        <Card withBorder padding="lg" radius="md">
          <Title order={2} size="h4" mb="md">
            {t('upload.file_title')}
          </Title>
          {taskId !== null ? (
            <UploadStatus taskId={taskId} onAnother={another} />
          ) : (
            <Stack>
              <Box
                className={classes.dropzone}
                data-dragging={dragging || undefined}
                onDragOver={(event) => {
                  event.preventDefault();
                  setDragging(true);
                }}
                onDragLeave={() => setDragging(false)}
                onDrop={onDrop}
                data-testid="upload-dropzone"
              >
                <Stack align="center" gap="xs">
                  <IconUpload size={28} />
                  <Text size="sm" ta="center">
                    {t('upload.drop')}
                  </Text>
                  <FileButton onChange={choose} accept={ACCEPT}>
                    {(props) => (
                      <Button variant="light" {...props}>
                        {t('upload.choose')}
                      </Button>
                    )}
                  </FileButton>
                  <Text size="xs" c="dimmed" ta="center">
                    {t('upload.rules', LIMITS)}
                  </Text>
                </Stack>
              </Box>
              {file && (
                <Text size="sm" data-testid="selected-file">
                  {t('upload.selected', { name: file.name })}
                </Text>
              )}
              {error && (
                <Alert color="red" variant="light" role="alert">
                  {error}
                </Alert>
              )}
              <Group>
                <Button onClick={() => file && upload.mutate(file)} disabled={!file} loading={upload.isPending} leftSection={<IconUpload size={16} />}>
                  {t('upload.start')}
                </Button>
              </Group>
            </Stack>
          )}
        </Card>
      </Stack>
    </AdminPageFrame>
  );
}
