import { QueryError } from '../../../components/QueryError';
import { Badge, Button, Card, Code, Drawer, Group, MultiSelect, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { adminMcpServersApi, type AdminMcpServer, type AdminMcpTool } from '../../../../../shared/api';
import { localizedName } from '../../../../../shared/domain/language';
import { useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { IconRefresh } from '../../../components/icons';
import { showToast } from '../../../components/toast';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import { ConnectionError, MCP_QUERIES, useReloadAfterConnectionFailure } from './mcpParts';

/** A server's tools: each switched on or off, marked sensitive, and given to member groups (saved at each change). */
export function McpToolsDrawer({ server, onClose }: { server: AdminMcpServer | null; onClose: () => void }) {
  const { t } = useTranslation('mcp');
  return (
    <Drawer
      opened={server !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={t('tools_title', { name: server?.name ?? '' })}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {server && <ToolList key={server.id} server={server} />}
    </Drawer>
  );
}

function ToolList({ server }: { server: AdminMcpServer }) {
  const { t } = useTranslation('mcp');
  const language = useResolvedLanguage();
  const tools = useEndpointQuery(adminMcpServersApi.listMcpServerTools, { params: { id: server.id } });
  const refresh = useEndpointMutation(adminMcpServersApi.refreshMcpServer, {
    invalidates: MCP_QUERIES,
    onSuccess: (saved) => showToast('success', t('refreshed', { count: saved.tool_count })),
    onError: useReloadAfterConnectionFailure(),
  });
  const change = useEndpointMutation(adminMcpServersApi.updateMcpTool, { invalidates: MCP_QUERIES, onSuccess: () => showToast('success', t('tool_saved')) });
  const set = (tool: AdminMcpTool, body: { is_enabled?: boolean; is_sensitive?: boolean; member_group_ids?: number[] }) =>
    change.mutate({ params: { id: server.id, toolId: tool.id }, body });

  const header = (
    <Stack gap="sm" mb="md">
      {server.last_error && <ConnectionError failure={server.last_error} />}
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          {t('tools_hint')}
        </Text>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconRefresh size={14} />}
          loading={refresh.isPending}
          onClick={() => refresh.mutate({ params: { id: server.id } })}
        >
          {t('refresh')}
        </Button>
      </Group>
    </Stack>
  );
  if (tools.isPending)
    return (
      <>
        {header}
        <Skeleton h={160} />
      </>
    );
  if (tools.isError) {
    return (
      <>
        {header}
        <QueryError query={tools} endpoint={adminMcpServersApi.listMcpServerTools} />
      </>
    );
  }
  const groups = tools.data.groups.map((group) => ({ value: String(group.id), label: localizedName(group, language) }));
  return (
    <>
      {header}
      {tools.data.items.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl" data-testid="mcp-tools-empty">
          {t('tools_empty')}
        </Text>
      ) : (
        <Stack gap="sm" data-testid="mcp-tools">
          {tools.data.items.map((tool) => (
            <Card key={tool.id} withBorder radius="md" padding="md" data-testid="mcp-tool" data-name={tool.name} opacity={tool.is_gone ? 0.7 : 1}>
              <Stack gap="xs">
                <Group gap="xs" wrap="wrap">
                  <Code fw={600}>{tool.name}</Code>
                  {tool.is_gone && (
                    <Badge color="gray" variant="light">
                      {t('gone')}
                    </Badge>
                  )}
                </Group>
                {tool.description && (
                  <Text size="sm" c="dimmed">
                    {tool.description}
                  </Text>
                )}
                <Group gap="lg" wrap="wrap">
                  <Switch
                    label={t('enabled')}
                    checked={tool.is_enabled}

                    onChange={(event) => set(tool, { is_enabled: event.currentTarget.checked })}
                    aria-label={t('enabled_named', { name: tool.name })}
                  />
                  <Switch
                    label={t('sensitive')}
                    checked={tool.is_sensitive}

                    onChange={(event) => set(tool, { is_sensitive: event.currentTarget.checked })}
                    aria-label={t('sensitive_named', { name: tool.name })}
                  />
                </Group>
                <MultiSelect
                  label={t('groups')}
                  description={tool.is_enabled ? undefined : t('groups_off_hint')}
                  placeholder={tool.member_group_ids.length === 0 ? t('groups_none') : undefined}
                  data={groups}
                  value={tool.member_group_ids.map(String)}
                  onChange={(values) => set(tool, { member_group_ids: values.map(Number) })}

                  comboboxProps={{ withinPortal: true }}
                />
              </Stack>
            </Card>
          ))}
        </Stack>
      )}
    </>
  );
}
