import { useState } from 'react';
import { Alert, Button, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { memberExportResultSchema } from '../../../../../shared/api/admin/memberTransfer';
import { isApiError } from '../../../../../shared/api/apiError';
import { MEMBER_FILE_FORMATS, type MemberFileFormat } from '../../../../../shared/domain/memberTransfer';
import { adminMemberTransferApi, buildPath } from '../../../../../shared/api';
import { sendRaw } from '../../../api/client';
import { useEndpointMutation } from '../../../api/endpointHooks';
import { IconDownload } from '../../../components/icons';
import { saveBlob } from '../../../components/saveBlob';
import { TaskProgress } from './TaskProgress';
import { useTask } from './useTask';

/** What the dialog shows of a finished or failed export (spec §8 "Export: timeout, failed, missing file url"). */
type Problem = 'failed' | 'timed_out' | 'missing_file' | 'start_failed' | 'download_failed';

function ExportDialogBody({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('memberTransfer');
  const [format, setFormat] = useState<MemberFileFormat>('csv');
  const [taskId, setTaskId] = useState<number | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const task = useTask(taskId).data;
  const parsed = task?.status === 'completed' ? memberExportResultSchema.safeParse(task.result) : null;
  const result = parsed?.success ? parsed.data : null;

  // Their failures are said in the dialog, not in a toast.
  const start = useEndpointMutation(adminMemberTransferApi.startMemberExport, {
    errorToast: false,
    onMutate: () => setProblem(null),
    onSuccess: (started) => setTaskId(started.id),
    onError: () => setProblem('start_failed'),
  });
  const download = useEndpointMutation(adminMemberTransferApi.downloadMemberExport, {
    errorToast: false,
    send: async ({ id }: { id: number; fileName: string }) => {
      const endpoint = adminMemberTransferApi.downloadMemberExport;
      return (await sendRaw(endpoint, buildPath(endpoint.path, { id }))).blob();
    },
    onSuccess: (blob, { fileName }) => saveBlob(blob, fileName),
    onError: (error) => setProblem(isApiError(error) && error.body?.code === 'export_file_missing' ? 'missing_file' : 'download_failed'),
  });
  const again = () => {
    setTaskId(null);
    setProblem(null);
  };

  const shownProblem: Problem | null =
    problem ??
    (task?.status === 'failed'
      ? task.error_code === 'timed_out'
        ? 'timed_out'
        : 'failed'
      : task?.status === 'completed' && !result?.download_path
        ? 'missing_file'
        : null);

  if (taskId === null || problem === 'start_failed') {
    return (
      <Stack>
        <div>
          <Text size="sm" fw={500} id="export-format-label" mb={6}>
            {t('export.format_label')}
          </Text>
          <SegmentedControl
            aria-labelledby="export-format-label"
            value={format}
            onChange={(value) => setFormat(value as MemberFileFormat)}
            data={MEMBER_FILE_FORMATS.map((value) => ({ value, label: t(`export.${value}`) }))}
          />
        </div>
        <Text size="sm" c="dimmed">
          {t('export.hint')}
        </Text>
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {t(`export.${problem}`)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('close')}
          </Button>
          <Button onClick={() => start.mutate({ query: { format } })} loading={start.isPending}>
            {t('export.start')}
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Stack>
      {(!task || task.status === 'running') && <TaskProgress task={task ?? placeholderTask} label={t('export.running')} unitKey="export.progress" />}
      {shownProblem && (
        <Alert color="red" variant="light" role="alert" data-testid="export-problem">
          {t(`export.${shownProblem}`)}
        </Alert>
      )}
      {result?.download_path && !shownProblem && (
        <Alert color="teal" variant="light" role="status" data-testid="export-ready">
          {t('export.completed', { count: result.rows })}
        </Alert>
      )}
      <Group justify="flex-end">
        {task && task.status !== 'running' && (
          <Button variant="default" onClick={again}>
            {t('export.again')}
          </Button>
        )}
        {result?.download_path && !shownProblem ? (
          <Button
            leftSection={<IconDownload size={16} />}
            onClick={() => taskId !== null && download.mutate({ id: taskId, fileName: result.file_name })}
            loading={download.isPending}
          >
            {t('export.download')}
          </Button>
        ) : (
          <Button variant="default" onClick={onClose}>
            {t('close')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/** Shown for the moment between the start and the first read of the task. */
const placeholderTask = {
  id: 0,
  kind: '',
  status: 'running' as const,
  result: null,
  progress: null,
  error_code: null,
  created_at: new Date().toISOString(),
  finished_at: null,
};

/**
 * "Export members" for the members page header: a dialog to choose CSV or Excel, then the export's
 * progress with elapsed and estimated time, then Download (spec §4 "Member export"). Closing the
 * dialog does not stop the export: opening it again and starting returns the running one.
 */
export function MemberExportButton() {
  const { t } = useTranslation('memberTransfer');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => setOpened(true)}>
        {t('export.button')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('export.title')} centered>
        {opened && <ExportDialogBody onClose={() => setOpened(false)} />}
      </Modal>
    </>
  );
}
