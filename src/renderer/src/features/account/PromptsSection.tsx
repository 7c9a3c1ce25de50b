import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { promptsApi } from '../../../../shared/api';
import { useEndpointQuery } from '../../api/endpointHooks';
import { ListStates } from '../../components/list/ListStates';
import { IconPlus } from '../../components/icons';
import { usePromptDialogs } from '../../components/prompts/usePromptDialogs';
import { PromptVariableBadges } from '../../components/prompts/PromptVariableBadges';

/** My page: the member's own prompts (issue 23), inserted with `/` in the message box beside the workspace's. */
export function PromptsSection() {
  const { t } = useTranslation('prompts');
  // The same list as the `/` menu's: the member's own are shown here, the tenant's in the console.
  const own = useEndpointQuery(promptsApi.listPrompts, {}, { select: (data) => ({ items: data.items.filter((prompt) => prompt.scope === 'personal') }) });
  const prompts = usePromptDialogs('personal');

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('my.hint')}
      </Text>
      <ListStates query={own} endpoint={promptsApi.listPrompts} empty={t('my.empty')} emptyTestId="my-prompts-empty" rowHeight={60}>
        {() => (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('my.list_label')} data-testid="my-prompts">
            {own.data?.items.map((prompt) => (
              <Paper component="li" key={prompt.id} withBorder radius="sm" p="sm" data-testid="my-prompt">
                <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                  <Stack gap={4} miw={0} style={{ flex: 1 }}>
                    <Text fw={500} size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {prompt.name}
                    </Text>
                    <Text size="sm" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                      {prompt.text}
                    </Text>
                    {prompt.variables.length > 0 && <PromptVariableBadges variables={prompt.variables} none="" />}
                  </Stack>
                  <Group gap={4} wrap="nowrap">
                    <Button size="xs" variant="default" onClick={() => prompts.edit(prompt)} aria-label={t('edit_named', { name: prompt.name })}>
                      {t('edit')}
                    </Button>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      onClick={() => prompts.confirmDelete(prompt)}
                      aria-label={t('delete_named', { name: prompt.name })}
                    >
                      {t('delete')}
                    </Button>
                  </Group>
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
      </ListStates>
      <Button
        leftSection={<IconPlus size={16} />}
        variant="light"
        style={{ alignSelf: 'flex-start' }}
        onClick={() => prompts.edit(null)}
        data-testid="my-new-prompt"
      >
        {t('new_prompt')}
      </Button>
      {prompts.dialogs}
    </Stack>
  );
}
