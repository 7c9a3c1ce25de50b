import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Box, UnstyledButton, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ANNOUNCEMENT_COLLAPSE_HEIGHT_PX } from '../../../../../shared/domain/ui';

/** Content taller than 250px is cut with a fading gradient and opens fully on click (spec §2). */
export function CollapsibleContent({ children }: { children: ReactNode }) {
  const { t } = useTranslation('admin');
  const inner = useRef<HTMLDivElement>(null);
  const [tall, setTall] = useState(false);
  const [expanded, setExpanded] = useState(false);

  useLayoutEffect(() => {
    const element = inner.current;
    if (!element) return;
    const measure = () => setTall(element.scrollHeight > ANNOUNCEMENT_COLLAPSE_HEIGHT_PX);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const collapsed = tall && !expanded;
  return (
    <Box pos="relative" data-testid="announcement-content" data-collapsed={collapsed}>
      <Box ref={inner} style={{ overflow: 'hidden', maxHeight: collapsed ? ANNOUNCEMENT_COLLAPSE_HEIGHT_PX : undefined }}>
        {children}
      </Box>
      {collapsed && (
        <UnstyledButton
          onClick={() => setExpanded(true)}
          pos="absolute"
          left={0}
          right={0}
          bottom={0}
          h={96}
          aria-label={t('announcements.expand')}
          style={{
            display: 'flex',
            alignItems: 'flex-end',
            justifyContent: 'center',
            paddingBottom: 6,
            background: 'linear-gradient(to bottom, rgba(255,255,255,0), var(--mantine-color-body) 85%)',
          }}
        >
          <Text size="xs" fw={600} c="indigo.7">
            {t('announcements.expand')}
          </Text>
        </UnstyledButton>
      )}
    </Box>
  );
}
