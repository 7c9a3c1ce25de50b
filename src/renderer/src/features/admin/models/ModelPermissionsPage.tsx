import { QueryError } from '../../../components/QueryError';
import { Badge, Box, Group, ScrollArea, Skeleton, Stack, Switch, Table, Text, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AdminPageFrame } from '../AdminPageFrame';
import { adminLlmModelsApi, type AdminLlmModel } from '../../../../../shared/api';
import { endpointKey, useEndpointMutation, useEndpointQuery } from '../../../api/endpointHooks';
import { showToast } from '../../../components/toast';
import { formatDate } from '../../../i18n/formatDate';
import { useResolvedLanguage } from '../../../i18n/useLanguage';
import classes from './ModelPermissionsPage.module.css';
import { localizedName } from '../../../../../shared/domain/language';

type Matrix = { models: AdminLlmModel[]; groups: { id: number; ko_name: string; en_name: string; is_default: boolean }[] };
interface Change {
  modelId: number;
  groupId: number;
  isAvailable: boolean;
}

/** Sets one cell of the cached matrix (the switch moves at once; a failure puts it back). */
function withCell(matrix: Matrix, { modelId, groupId, isAvailable }: Change): Matrix {
  return {
    ...matrix,
    models: matrix.models.map((model) =>
      model.id !== modelId
        ? model
        : {
            ...model,
            available_group_ids: isAvailable ? [...new Set([...model.available_group_ids, groupId])] : model.available_group_ids.filter((id) => id !== groupId),
          },
    ),
  };
}

function ModelCell({ model }: { model: AdminLlmModel }) {
  const { t } = useTranslation('models');
  const language = useResolvedLanguage();
  return (
    <Stack gap={2}>
      <Group gap={6} wrap="nowrap">
        <Text fw={600} size="sm">
          {model.display_name}
        </Text>
        {model.is_unlimited && (
          <Badge size="xs" color="teal" variant="light">
            {t('unlimited')}
          </Badge>
        )}
        {model.is_low_llm && !model.is_unlimited && (
          <Badge size="xs" color="gray" variant="light">
            {t('low_tier')}
          </Badge>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {[
          model.provider,
          t('context', { tokens: model.context_limit.toLocaleString(language) }),
          t('cost', { input: model.input_cost_per_10k, output: model.output_cost_per_10k }),
          model.release_date ? t('released', { date: formatDate(model.release_date, language) }) : null,
          model.chatbot_allowed ? null : t('chat_only'),
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
    </Stack>
  );
}

/** Admin "model permission settings per group" (spec §2, §5, §7): models × member groups. */
export default function ModelPermissionsPage() {
  const { t } = useTranslation('models');
  const language = useResolvedLanguage();
  const queryClient = useQueryClient();
  const matrix = useEndpointQuery(adminLlmModelsApi.listAdminLlmModels, {});
  const matrixKey = endpointKey(adminLlmModelsApi.listAdminLlmModels);
  // The switch moves at once; a failure puts it back.
  const change = useEndpointMutation(adminLlmModelsApi.setModelGroupPermission, {
    onMutate: async ({ params, body }) => {
      await queryClient.cancelQueries({ queryKey: matrixKey });
      const before = queryClient.getQueryData<Matrix>(matrixKey);
      if (before)
        queryClient.setQueryData(
          matrixKey,
          withCell(before, { modelId: Number(params.modelId), groupId: Number(params.groupId), isAvailable: body.is_available }),
        );
      return { before };
    },
    onError: (_error, _cell, context) => {
      if (context?.before) queryClient.setQueryData(matrixKey, context.before);
    },
    onSuccess: (result) => showToast('success', t(result.is_available ? 'switched_on' : 'switched_off')),
  });
  const groupName = (group: Matrix['groups'][number]) => localizedName(group, language);

  let body;
  if (matrix.isPending) {
    body = (
      <Stack gap="xs" aria-busy="true" data-testid="models-skeleton">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} h={48} radius="md" />
        ))}
      </Stack>
    );
  } else if (matrix.isError) {
    body = <QueryError query={matrix} endpoint={adminLlmModelsApi.listAdminLlmModels} />;
  } else if (matrix.data.models.length === 0) {
    body = <Text c="dimmed">{t('empty')}</Text>;
  } else {
    const { models, groups } = matrix.data;
    body = (
      <ScrollArea type="auto" offsetScrollbars>
        <Table className={classes.matrix} verticalSpacing="sm" withTableBorder data-testid="model-matrix">
          <Table.Thead>
            <Table.Tr>
              <Table.Th className={classes.sticky} scope="col">
                {t('model')}
              </Table.Th>
              {groups.map((group) => (
                <Table.Th key={group.id} scope="col" ta="center">
                  {groupName(group)}
                  {group.is_default && (
                    <Badge size="xs" variant="light" color="gray" display="block" mx="auto" mt={4}>
                      {t('default_group')}
                    </Badge>
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {models.map((model) => (
              <Table.Tr key={model.id} data-testid="model-row" data-model={model.name}>
                <Table.Th scope="row" className={classes.sticky}>
                  <ModelCell model={model} />
                </Table.Th>
                {groups.map((group) => {
                  const label = t('switch_label', { model: model.display_name, group: groupName(group) });
                  const toggle = (
                    <Switch
                      checked={model.is_unlimited || model.available_group_ids.includes(group.id)}
                      disabled={model.is_unlimited}
                      onChange={(event) =>
                        change.mutate({ params: { modelId: model.id, groupId: group.id }, body: { is_available: event.currentTarget.checked } })
                      }
                      aria-label={label}
                      aria-describedby={model.is_unlimited ? 'unlimited-locked' : undefined}
                    />
                  );
                  return (
                    <Table.Td key={group.id} ta="center">
                      <Box display="inline-block">
                        {model.is_unlimited ? (
                          <Tooltip label={t('locked')}>
                            <span>{toggle}</span>
                          </Tooltip>
                        ) : (
                          toggle
                        )}
                      </Box>
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text id="unlimited-locked" size="xs" c="dimmed" mt="xs">
          {t('locked')}
        </Text>
      </ScrollArea>
    );
  }

  return (
    <AdminPageFrame title={t('title')} description={t('description')}>
      {body}
    </AdminPageFrame>
  );
}
