import { Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LlmModel } from '../../../../shared/api';
import { llmModelsApi } from '../../../../shared/api';
import { useEndpointQuery } from '../../api/endpointHooks';
import { useModelDetails } from '../../components/useModelDetails';
import type { ReactNode } from 'react';

interface ModelPickerProps {
  value: number;
  /** The chatbot's saved model, offered even when the list leaves it out (no longer allowed). */
  current: LlmModel;
  onChange: (id: number) => void;
  error?: ReactNode;
}

/** The models the member may put in a chatbot, each with its context limit, cost and release date. */
export function ModelPicker({ value, current, onChange, error }: ModelPickerProps) {
  const { t } = useTranslation('studio');
  // Models the member may put in a chatbot (the server leaves out prohibited and not-allowed ones).
  const models = useEndpointQuery(llmModelsApi.listLlmModels, { query: { for_chatbot: true } }, { staleTime: 60_000, select: (answer) => answer.items });
  const details = useModelDetails();
  const offered = models.data ?? [];
  const all = offered.some((model) => model.id === current.id) ? offered : [current, ...offered];
  const selected = all.find((model) => model.id === value);
  return (
    <Stack gap={4}>
      <Select
        label={t('fields.model')}
        data={all.map((model) => ({ value: String(model.id), label: model.display_name }))}
        value={String(value)}
        onChange={(next) => next && onChange(Number(next))}
        allowDeselect={false}
        error={error}
        renderOption={({ option }) => {
          const model = all.find((candidate) => String(candidate.id) === option.value);
          return (
            <Stack gap={0}>
              <Text size="sm">{option.label}</Text>
              {model && (
                <Text size="xs" c="dimmed">
                  {details(model).join(' · ')}
                </Text>
              )}
            </Stack>
          );
        }}
        data-testid="model-select"
      />
      {selected && (
        <Text size="xs" c="dimmed" data-testid="model-picker-details">
          {details(selected).join(' · ')}
        </Text>
      )}
    </Stack>
  );
}
