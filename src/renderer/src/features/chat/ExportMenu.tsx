import { useState } from 'react';
import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { buildPath, sessionTransferApi, type Session } from '../../../../shared/api';
import { SESSION_PRINT_ROUTE, sessionExportFileName, type SessionExportFormat } from '../../../../shared/domain/sessionTransfer';
import { sendRaw } from '../../api/client';
import { useEndpointMutation } from '../../api/endpointHooks';
import { IconDownload, IconFileText, IconPrinter } from '../../components/icons';
import { saveBlob } from '../../components/saveBlob';

/**
 * The chat header's Export menu, beside rename, share and delete: the chat as a Markdown or JSON
 * download (named after its title), or its print view, which the browser prints or saves as PDF.
 */
export function ExportSessionMenu({ session }: { session: Session }) {
  const { t } = useTranslation('chatExport');
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const endpoint = sessionTransferApi.exportSession;
  const download = useEndpointMutation(endpoint, {
    send: async (format: SessionExportFormat) => {
      const path = `${buildPath(endpoint.path, { hash: session.hash_id })}?format=${format}`;
      return (await sendRaw(endpoint, path)).blob();
    },
    onSuccess: (blob, format) => saveBlob(blob, sessionExportFileName(session.title, format)),
  });
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-start" withinPortal>
      <Menu.Target>
        {/* Hidden while the menu is open: it would cover the first item. */}
        <Tooltip label={t('menu.open')} disabled={opened}>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('menu.open')} loading={download.isPending} data-testid="export-session">
            <IconDownload size={15} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconFileText size={14} />} onClick={() => download.mutate('markdown')} data-testid="export-markdown">
          {t('menu.markdown')}
        </Menu.Item>
        <Menu.Item leftSection={<IconFileText size={14} />} onClick={() => download.mutate('json')} data-testid="export-json">
          {t('menu.json')}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconPrinter size={14} />}
          onClick={() => void navigate(`${SESSION_PRINT_ROUTE}/${session.hash_id}`)}
          data-testid="export-print"
        >
          {t('menu.print')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
