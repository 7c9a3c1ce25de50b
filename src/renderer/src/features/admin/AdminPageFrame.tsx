import type { ReactNode } from 'react';
import { Box, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '../../components/useDocumentTitle';

/** Heading (the page's h1, also its document title), description and body of an admin console page. */
export function AdminPageFrame({ title, description, maw = 1200, children }: { title: string; description: string; maw?: number; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Box px={{ base: 'md', sm: 40 }} py={32} maw={maw}>
      <Stack gap={4} mb="xl">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed" size="sm">
          {description}
        </Text>
      </Stack>
      {children}
    </Box>
  );
}
