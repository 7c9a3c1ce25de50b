import type { FormEventHandler, ReactNode } from 'react';
import { Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { LanguageMenu } from '../../components/LanguageMenu';
import { MAIN_CONTENT_ID } from '../../components/mainContent';

/** The frame of the signed-out password screens: the sign-in page's background, language menu and card. */
export function AuthCard({
  title,
  intro,
  onSubmit,
  children,
}: {
  title: string;
  intro?: string;
  onSubmit?: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  const body = (
    <Stack gap="lg">
      <Stack gap={8}>
        <Title order={1} size="h2">
          {title}
        </Title>
        {intro && (
          <Text c="dimmed" size="sm">
            {intro}
          </Text>
        )}
      </Stack>
      {children}
    </Stack>
  );
  const card = { w: '100%', maw: 420, p: { base: 20, xs: 36 }, radius: 'lg', shadow: 'md', withBorder: true } as const;
  return (
    <Box
      mih="100vh"
      style={{ background: 'linear-gradient(160deg, var(--mantine-color-indigo-0) 0%, var(--mantine-color-gray-0) 55%, var(--mantine-color-white) 100%)' }}
    >
      <Group component="header" justify="flex-end" p="md">
        <LanguageMenu />
      </Group>
      <Center component="main" id={MAIN_CONTENT_ID} tabIndex={-1} px="md" pb={80} pt={24}>
        {onSubmit ? (
          <Paper component="form" onSubmit={onSubmit} noValidate {...card}>
            {body}
          </Paper>
        ) : (
          <Paper {...card}>{body}</Paper>
        )}
      </Center>
    </Box>
  );
}
