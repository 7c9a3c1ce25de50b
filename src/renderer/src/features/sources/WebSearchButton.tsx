import { useId } from 'react';
import { ActionIcon, Tooltip, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useTenant } from '../../api/tenant';
import { useWebSearchStore } from './webSearchStore';
import { IconGlobe } from '../../components/icons';

/**
 * The composer's web search mode: a toggle button (aria-pressed). When the server has no search
 * service it stays focusable but inert, and its tooltip and description say why.
 */
export function WebSearchButton({ disabled = false }: { disabled?: boolean }) {
  const { t } = useTranslation('sources');
  const available = useTenant().data?.features.web_search ?? false;
  const on = useWebSearchStore((state) => state.on) && available;
  const descriptionId = useId();
  const hint = !available ? t('webSearch.unavailable') : on ? t('webSearch.on') : t('webSearch.off');
  const inert = disabled || !available;
  return (
    <>
      <Tooltip label={hint}>
        <ActionIcon
          size="lg"
          radius="xl"
          variant={on ? 'light' : 'subtle'}
          color={on ? 'indigo' : 'gray'}
          aria-label={t('webSearch.label')}
          aria-pressed={on}
          aria-disabled={inert || undefined}
          aria-describedby={descriptionId}
          data-disabled={inert || undefined}
          data-testid="web-search-button"
          onClick={() => !inert && useWebSearchStore.setState({ on: !on })}
        >
          <IconGlobe />
        </ActionIcon>
      </Tooltip>
      <VisuallyHidden id={descriptionId}>{hint}</VisuallyHidden>
    </>
  );
}
