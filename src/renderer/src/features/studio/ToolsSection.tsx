import { Alert, Badge, Button, Checkbox, Group, Loader, NumberInput, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toolsApi } from '../../../../shared/api';
import { CHATBOT_TOOLS_MAX, TOOL_STEP_LIMIT } from '../../../../shared/domain/mcp';
import { useEndpointQuery } from '../../api/endpointHooks';

interface ToolsSectionProps {
  toolIds: number[];
  onToolIdsChange: (ids: number[]) => void;
  stepLimit: number;
  onStepLimitChange: (value: number) => void;
  toolsError?: ReactNode;
  stepLimitError?: ReactNode;
}

/**
 * The chatbot's MCP tools (issue 24): the tools the editor may pick, each a checkbox, and how many
 * tool steps one answer may take. Tools already on the chatbot that the editor is not offered (an
 * admin gave them, or they are switched off for now) stay as they are and are only counted here
 * (docs/decisions/0084-chatbot-tools.md).
 */
export function ToolsSection({ toolIds, onToolIdsChange, stepLimit, onStepLimitChange, toolsError, stepLimitError }: ToolsSectionProps) {
  const { t } = useTranslation('studio');
  const tools = useEndpointQuery(toolsApi.listPickableTools, {}, { staleTime: 60_000, select: (answer) => answer.items });

  let list: ReactNode;
  if (tools.isPending) list = <Loader size="sm" aria-label={t('tools.loading')} />;
  else if (tools.isError)
    list = (
      <Alert color="red" variant="light" title={t('tools.load_failed')}>
        <Button variant="default" size="xs" onClick={() => void tools.refetch()}>
          {t('tools.retry')}
        </Button>
      </Alert>
    );
  else if (tools.data.length === 0)
    list = (
      <Text size="sm" c="dimmed" data-testid="tools-empty">
        {t('tools.empty')}
      </Text>
    );
  else {
    const full = toolIds.length >= CHATBOT_TOOLS_MAX;
    list = (
      <Checkbox.Group
        label={t('tools.list')}
        value={toolIds.map(String)}
        onChange={(values) => onToolIdsChange(values.map(Number).sort((a, b) => a - b))}
        // At the limit the others are disabled, and the description says why (not an error: nothing is wrong yet).
        description={full ? t('tools.too_many', { max: CHATBOT_TOOLS_MAX }) : undefined}
        error={toolsError}
        data-testid="tool-picker"
      >
        <Stack gap="sm" mt="xs">
          {tools.data.map((tool) => (
            <Checkbox
              key={tool.id}
              value={String(tool.id)}
              disabled={full && !toolIds.includes(tool.id)}
              label={
                <Group gap={6} wrap="wrap">
                  <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {tool.name}
                  </Text>
                  {tool.is_sensitive && (
                    <Badge size="xs" variant="light" color="orange">
                      {t('tools.sensitive')}
                    </Badge>
                  )}
                </Group>
              }
              description={
                <>
                  {t('tools.server', { server: tool.server_name })}
                  {tool.description && ` · ${tool.description}`}
                </>
              }
              styles={{ description: { overflowWrap: 'anywhere' } }}
              data-testid={`tool-${tool.name}`}
            />
          ))}
        </Stack>
      </Checkbox.Group>
    );
  }
  const offered = new Set(tools.data?.map((tool) => tool.id));
  const others = tools.data ? toolIds.filter((id) => !offered.has(id)).length : 0;

  return (
    <>
      <Text size="sm" c="dimmed">
        {t('tools.hint')}
      </Text>
      {list}
      {others > 0 && (
        <Text size="sm" data-testid="tools-others">
          {t('tools.others', { count: others })}
        </Text>
      )}
      <NumberInput
        label={t('tools.step_limit')}
        description={t('tools.step_limit_hint', TOOL_STEP_LIMIT)}
        min={TOOL_STEP_LIMIT.min}
        max={TOOL_STEP_LIMIT.max}
        step={1}
        allowDecimal={false}
        clampBehavior="strict"
        value={stepLimit}
        onChange={(next) => typeof next === 'number' && onStepLimitChange(next)}
        error={stepLimitError}
        w={200}
        data-testid="tool-step-limit"
      />
    </>
  );
}
