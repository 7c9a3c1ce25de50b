import type { ReactNode } from 'react';
import { Box, EmptyState, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from './useDocumentTitle';

interface PageFrameProps {
  title: string;
  description?: string;
  children: ReactNode;
}

/** Heading (the page's h1, also its document title) and body of a dashboard page. */
export function PageFrame({ title, description, children }: PageFrameProps) {
  useDocumentTitle(title);
  return (
    <Box px={{ base: 'md', sm: 40 }} py={32} maw={1200} w="100%" mx="auto">
      <Stack gap={4} mb="xl">
        <Title order={1} size="h2">
          {title}
        </Title>
        {description && <Text c="dimmed">{description}</Text>}
      </Stack>
      {children}
    </Box>
  );
}

interface ComingSoonProps {
  icon: ReactNode;
  title: string;
  description: string;
}

/** Empty state of a page whose content arrives in a later release. */
export function ComingSoon({ icon, title, description }: ComingSoonProps) {
  return (
    <EmptyState
      icon={icon}
      title={title}
      description={description}
      variant="light"
      py={80}
      px="xl"
      style={{ border: '1px dashed var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-lg)' }}
    />
  );
}
