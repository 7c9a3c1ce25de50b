import { Alert, Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Endpoint } from '../../../shared/api/endpoint';
import { errorText } from '../api/errorMessages';

/** What QueryError reads of a failed TanStack query. */
export interface FailedQuery {
  error: unknown;
  refetch: () => unknown;
}

/**
 * A load that failed, where its content would be: the endpoint's message for the error and Retry.
 * Every list and drawer shows a failed load this way (ListStates uses it).
 */
export function QueryError({ query, endpoint, testId }: { query: FailedQuery; endpoint: Endpoint; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" title={errorText(query.error, endpoint)} data-testid={testId}>
      <Button size="xs" variant="default" onClick={() => void query.refetch()}>
        {t('retry')}
      </Button>
    </Alert>
  );
}
