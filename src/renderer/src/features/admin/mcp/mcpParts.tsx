import { Alert, Badge, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminMcpServersApi, type AdminMcpServer, isApiError } from '../../../../../shared/api';
import { invalidateEndpoints } from '../../../api/endpointHooks';

/** What a change of a server or a tool makes stale: the list (counts, errors) and the tools. */
export const MCP_QUERIES = [adminMcpServersApi.listAdminMcpServers, adminMcpServersApi.listMcpServerTools];

/**
 * What a failed connection makes stale too: a 424 saved the settings and the failure, a 422
 * `destination_refused` on refresh stored it; the list and the drawer show them. Returns whether it was one.
 */
export function useReloadAfterConnectionFailure() {
  const queryClient = useQueryClient();
  return (error: Error): boolean => {
    const failed = isApiError(error) && (error.status === 424 || error.body?.code === 'destination_refused');
    if (failed) void invalidateEndpoints(queryClient, MCP_QUERIES);
    return failed;
  };
}

/** A server's last connection failure: what it means in the admin's language, then the server's own words and when. */
export function ConnectionError({ failure, compact = false }: { failure: NonNullable<AdminMcpServer['last_error']>; compact?: boolean }) {
  const { t, i18n } = useTranslation('mcp');
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(failure.at));
  const reason = t(`connection_errors.${failure.code}`);
  if (compact) {
    return (
      <Stack gap={2} maw={280} data-testid="mcp-connection-error">
        <Badge color="red" variant="light">
          {t('failed')}
        </Badge>
        <Text size="xs" c="red.9">
          {reason}
        </Text>
      </Stack>
    );
  }
  return (
    <Alert color="red" title={reason} data-testid="mcp-connection-error">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {failure.message}
      </Text>
      <Text size="xs" c="dimmed" mt={4}>
        {t('failed_at', { when })}
      </Text>
    </Alert>
  );
}
