import { useState } from 'react';
import { Alert, Anchor, Box, Code, Group, Paper, Select, SegmentedControl, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Chatbot } from '../../../../shared/api';
import { API_KEY_PREFIX } from '../../../../shared/domain/apiKeys';
import { chatbotName } from '../../../../shared/domain/chatbots';
import { useOpenAiEndpoint } from '../../api/apiKeys';
import { useKeyChatbotChoices } from './useKeyChatbotChoices';
import { useApiReferenceUrl } from '../../api/apiReference';
import { IconExternal } from '../../components/icons';
import { useResolvedLanguage } from '../../i18n/useLanguage';
import { CodeBlock } from '../../components/CopyButton';
import { EXAMPLE_LANGUAGES, type ExampleLanguage, apiExample } from './apiExamples';

/** How to call the API: base URL, the chosen chatbot's model id and copyable examples. */
export function ApiDocs() {
  const { t } = useTranslation('developers');
  const language = useResolvedLanguage();
  const endpoint = useOpenAiEndpoint();
  const choices = useKeyChatbotChoices();
  const referenceUrl = useApiReferenceUrl(language);
  const [example, setExample] = useState<ExampleLanguage>('curl');
  const [chosenId, setChosenId] = useState<string | null>(null);
  const chatbots: Chatbot[] = choices.data?.items ?? [];
  const chatbot = chatbots.find((item) => String(item.id) === chosenId) ?? chatbots[0];

  let body;
  if (endpoint.isPending || choices.isPending) body = <Skeleton h={220} radius="md" />;
  else if (endpoint.isError || choices.isError || !endpoint.data) body = <Alert color="red">{t('docs.load_failed')}</Alert>;
  else {
    const model = chatbot?.hash_id ?? 'CHATBOT_ID';
    const code = apiExample(example, { ...endpoint.data, model, keyPlaceholder: `${API_KEY_PREFIX}…` });
    body = (
      <Stack gap="md">
        <Box component="dl" m={0}>
          <Text component="dt" size="xs" fw={600} c="dimmed">
            {t('docs.base_url')}
          </Text>
          <Text component="dd" m={0} mb="xs">
            <Code data-testid="base-url" style={{ overflowWrap: 'anywhere' }}>
              {endpoint.data.baseUrl}
            </Code>
          </Text>
          <Text component="dt" size="xs" fw={600} c="dimmed">
            {t('docs.model')}
          </Text>
          <Text component="dd" m={0}>
            <Code data-testid="model-id">{model}</Code>
          </Text>
        </Box>
        <Group gap="sm" align="flex-end">
          <Select
            label={t('docs.chatbot')}
            data={chatbots.map((item) => ({ value: String(item.id), label: chatbotName(item, language) || t('untitled') }))}
            value={chatbot ? String(chatbot.id) : null}
            onChange={setChosenId}
            allowDeselect={false}
            w={{ base: '100%', sm: 280 }}
          />
          <SegmentedControl
            value={example}
            onChange={(value) => setExample(value as ExampleLanguage)}
            data={EXAMPLE_LANGUAGES.map((value) => ({ value, label: t(`docs.language.${value}`) }))}
            aria-label={t('docs.language_label')}
          />
        </Group>
        <CodeBlock code={code}>
          <Code block data-testid="api-example" tabIndex={0} aria-label={t('docs.example_label')} style={{ whiteSpace: 'pre', overflowX: 'auto' }}>
            {code}
          </Code>
        </CodeBlock>
        <Text size="sm" c="dimmed">
          {t('docs.parameters')}
        </Text>
        <Text size="sm" c="dimmed">
          {t('docs.errors')}
        </Text>
        {referenceUrl && (
          <Anchor href={referenceUrl} target="_blank" rel="noopener noreferrer" size="sm" fw={600} data-testid="api-reference-link">
            <Group component="span" gap={4} wrap="nowrap" display="inline-flex">
              {t('docs.reference')}
              <IconExternal size={13} />
              <VisuallyHidden>{t('docs.new_tab')}</VisuallyHidden>
            </Group>
          </Anchor>
        )}
      </Stack>
    );
  }
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby="api-docs-title">
      <Title order={2} size="h4" id="api-docs-title" mb={4}>
        {t('docs.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('docs.description')}
      </Text>
      {body}
    </Paper>
  );
}
