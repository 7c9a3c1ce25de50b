import { Badge, Group, Text } from '@mantine/core';

/** A prompt's variables as small badges, or `none` when it asks for nothing. */
export function PromptVariableBadges({ variables, none }: { variables: string[]; none: string }) {
  if (variables.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {none}
      </Text>
    );
  return (
    <Group gap={4}>
      {variables.map((name) => (
        <Badge key={name} size="sm" variant="light" tt="none">
          {name}
        </Badge>
      ))}
    </Group>
  );
}
