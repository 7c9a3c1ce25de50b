import { useState } from 'react';
import { ActionIcon, Badge, Button, Menu, Modal, PasswordInput, Select, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminMcpServersApi, isApiError, type AdminMcpServer, type McpServerBody } from '../../../../../shared/api';
import { MCP_SECRET_KINDS, type McpSecretKind } from '../../../../../shared/domain/mcp';
import { DEFAULT_LIST_PAGE_SIZE } from '../../../../../shared/domain/pagination';
import { useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { FormDialogButtons } from '../../../components/forms/FormDialogButtons';
import { bodySchemaOf, focusFirstError, formErrorText, zodResolver } from '../../../components/forms/zodResolver';
import { IconChevron, IconPlus } from '../../../components/icons';
import { ListStates } from '../../../components/list/ListStates';
import { ActionsHeader, ListTable, ListToolbar } from '../../../components/list/ListParts';
import { useListState } from '../../../components/list/useListState';
import { showToast } from '../../../components/toast';
import { AdminPageFrame } from '../AdminPageFrame';
import { ConnectionError, MCP_QUERIES, useReloadAfterConnectionFailure } from './mcpParts';
import { McpToolsDrawer } from './McpToolsDrawer';

const bodySchema = bodySchemaOf(adminMcpServersApi.createMcpServer);

const EMPTY: McpServerBody = { name: '', url: '', description: '', secret_kind: 'none', secret_header_name: '', secret: '' };

/**
 * Add or edit a server. On save the server lists its tools; a failed connection still saves (424:
 * the list shows the error), so the dialog closes either way once the server answered.
 */
function ServerDialog({ server, onClose }: { server: AdminMcpServer | null; onClose: () => void }) {
  const { t } = useTranslation('mcp');
  const reloadAfterFailure = useReloadAfterConnectionFailure();
  const form = useForm<McpServerBody>({
    mode: 'controlled',
    initialValues: server
      ? {
          name: server.name,
          url: server.url,
          description: server.description,
          secret_kind: server.secret_kind,
          secret_header_name: server.secret_header_name,
          secret: '',
        }
      : EMPTY,
    validate: zodResolver(bodySchema, { url: 'mcp:validation.url', secret_header_name: 'mcp:validation.header_name' }),
  });
  const handlers = {
    invalidates: MCP_QUERIES,
    onSuccess: (saved: AdminMcpServer) => {
      showToast('success', t('saved', { count: saved.tool_count }));
      onClose();
    },
    onError: (error: Error) => {
      // Saved, but the connection failed: the list shows the server with its error.
      if (reloadAfterFailure(error) && isApiError(error) && error.status === 424) onClose();
    },
  };
  const create = useEndpointMutation(adminMcpServersApi.createMcpServer, handlers);
  const update = useEndpointMutation(adminMcpServersApi.updateMcpServer, handlers);
  const save = (body: McpServerBody) => {
    if (server) update.mutate({ params: { id: server.id }, body });
    else create.mutate({ body });
  };
  const kind = form.values.secret_kind ?? 'none';
  // The stored secret stays, whichever way it is sent, unless a new one is typed (or "none" drops it).
  const keptSecret = server?.has_secret && kind !== 'none';
  const input = (path: keyof McpServerBody) => {
    const props = form.getInputProps(path);
    return { ...props, error: formErrorText(props.error) };
  };
  return (
    <Modal opened onClose={onClose} title={server ? t('edit_title') : t('add_title')} size="lg" centered>
      <form noValidate onSubmit={form.onSubmit(save, (errors) => focusFirstError(form, errors))}>
        <Stack gap="md">
          <TextInput label={t('name')} withAsterisk {...input('name')} data-autofocus />
          <TextInput label={t('url')} description={t('url_hint')} withAsterisk placeholder="https://" {...input('url')} />
          <Textarea label={t('description_label')} autosize minRows={2} maxRows={5} {...input('description')} />
          <Select
            label={t('secret_kind')}
            allowDeselect={false}
            data={MCP_SECRET_KINDS.map((value) => ({ value, label: t(`secret_kinds.${value}`) }))}
            {...input('secret_kind')}
            onChange={(value) => form.setFieldValue('secret_kind', (value ?? 'none') as McpSecretKind)}
          />
          {kind === 'header' && <TextInput label={t('secret_header_name')} withAsterisk placeholder="X-Api-Key" {...input('secret_header_name')} />}
          {kind !== 'none' && (
            <PasswordInput
              label={t('secret')}
              description={keptSecret ? t('secret_kept') : t('secret_hint')}
              placeholder={keptSecret ? t('secret_kept_placeholder') : undefined}
              autoComplete="new-password"
              {...input('secret')}
            />
          )}
          <FormDialogButtons cancelLabel={t('cancel')} onCancel={onClose} submitLabel={t('save')} saving={create.isPending || update.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}

type Dialog = { kind: 'edit'; server: AdminMcpServer | null } | { kind: 'tools' | 'delete'; server: AdminMcpServer };

/** Admin console: the tenant's MCP servers and their tools (issue 24; docs/decisions "MCP servers"). */
export default function McpServersPage() {
  const { t, i18n } = useTranslation('mcp');
  const listState = useListState({ size: DEFAULT_LIST_PAGE_SIZE });
  const list = useEndpointQuery(
    adminMcpServersApi.listAdminMcpServers,
    { query: { page: listState.page, size: listState.size } },
    { placeholderData: keepPreviousData },
  );
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);
  const reloadAfterFailure = useReloadAfterConnectionFailure();
  const remove = useEndpointMutation(adminMcpServersApi.deleteMcpServer, {
    invalidates: MCP_QUERIES,
    onSuccess: () => showToast('success', t('deleted')),
    onSettled: close,
  });
  const refresh = useEndpointMutation(adminMcpServersApi.refreshMcpServer, {
    invalidates: MCP_QUERIES,
    onSuccess: (server) => showToast('success', t('refreshed', { count: server.tool_count })),
    onError: reloadAfterFailure,
  });
  const number = new Intl.NumberFormat(i18n.language);
  const counts = (server: AdminMcpServer) => t('tool_counts', { enabled: number.format(server.enabled_tool_count), total: number.format(server.tool_count) });
  // The drawer shows the list's current row, so a refresh there updates its error and counts.
  const drawerServer = dialog?.kind === 'tools' ? (list.data?.items.find((row) => row.id === dialog.server.id) ?? dialog.server) : null;

  return (
    <AdminPageFrame title={t('title')} description={t('description')}>
      <ListToolbar>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'edit', server: null })}>
          {t('add')}
        </Button>
      </ListToolbar>
      <ListStates
        query={list}
        list={listState}
        endpoint={adminMcpServersApi.listAdminMcpServers}
        empty={t('empty')}
        emptyTestId="mcp-servers-empty"
        rowHeight={56}
      >
        {() => (
          <ListTable
            minWidth={720}
            verticalSpacing="sm"
            data-testid="mcp-servers"
            head={
              <>
                <Table.Th>{t('name')}</Table.Th>
                <Table.Th>{t('tools')}</Table.Th>
                <Table.Th>{t('status')}</Table.Th>
                <ActionsHeader label={t('actions')} />
              </>
            }
          >
            {list.data?.items.map((server) => (
              <Table.Tr key={server.id} data-testid="mcp-server-row" data-name={server.name}>
                <Table.Td maw={360}>
                  <Text fw={500} size="sm">
                    {server.name}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {server.url}
                  </Text>
                  {server.description && (
                    <Text size="xs" c="dimmed" lineClamp={2}>
                      {server.description}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    onClick={() => setDialog({ kind: 'tools', server })}
                    aria-label={t('tools_of', { name: server.name, counts: counts(server) })}
                  >
                    {counts(server)}
                  </Button>
                </Table.Td>
                <Table.Td>
                  {server.last_error ? (
                    <ConnectionError failure={server.last_error} compact />
                  ) : server.last_connected_at ? (
                    <Badge color="teal" variant="light">
                      {t('connected')}
                    </Badge>
                  ) : (
                    <Badge color="gray" variant="light">
                      {t('never_connected')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon variant="default" aria-label={t('actions_named', { name: server.name })}>
                        <IconChevron size={16} />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item onClick={() => setDialog({ kind: 'tools', server })}>{t('show_tools')}</Menu.Item>
                      <Menu.Item onClick={() => refresh.mutate({ params: { id: server.id } })}>{t('refresh')}</Menu.Item>
                      <Menu.Item onClick={() => setDialog({ kind: 'edit', server })}>{t('edit')}</Menu.Item>
                      <Menu.Item color="red" onClick={() => setDialog({ kind: 'delete', server })}>
                        {t('delete')}
                      </Menu.Item>
                    </Menu.Dropdown>
                  </Menu>
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </ListStates>
      {dialog?.kind === 'edit' && <ServerDialog server={dialog.server} onClose={close} />}
      <McpToolsDrawer server={drawerServer} onClose={close} />
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('delete_title')}
        body={t('delete_body', { name: dialog?.server?.name ?? '' })}
        cancelLabel={t('cancel')}
        confirmLabel={t('delete')}
        loading={remove.isPending}
        onCancel={close}
        onConfirm={() => dialog?.server && remove.mutate({ params: { id: dialog.server.id } })}
      />
    </AdminPageFrame>
  );
}
