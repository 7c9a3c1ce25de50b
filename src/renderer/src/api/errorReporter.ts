import { errorLogApi, type ApiError, type Endpoint, type ErrorLogBody } from '../../../shared/api';
export { isReportedStatus } from '../../../shared/api';
import { getPlatform } from '../platform';

const { truncateField } = errorLogApi;

export interface FailureReport {
  endpoint: Pick<Endpoint, 'method' | 'path'>;
  url: string;
  requestBody: unknown;
  error: ApiError;
  /**
   * Null when no Response is at hand: a network failure, or a failure the platform already turned
   * into an ApiError (the chat stream), which is then described from the error's status and body.
   */
  response: Response | null;
}

function describeResponse(error: ApiError, response: Response | null, responseText: string): string {
  if (response) return `${response.status} ${response.statusText}\n${responseText}`;
  if (error.status === 0) return 'network failure (no response)';
  return `${error.status}\n${error.body ? JSON.stringify(error.body) : ''}`;
}

function describeHeaders(headers: Headers): string {
  return [...headers.entries()].map(([name, value]) => `${name}: ${value}`).join('\n');
}

/** Builds the log-error body: the chat-style attachment blocks of spec §7, each field truncated. */
export async function buildErrorLog(report: FailureReport): Promise<ErrorLogBody> {
  const { endpoint, url, requestBody, error, response } = report;
  const responseText = response ? await response.clone().text().catch(() => '') : '';
  const attachments = [
    { title: 'Response', text: truncateField(describeResponse(error, response, responseText)) },
    { title: 'Headers', text: truncateField(response ? describeHeaders(response.headers) : '') },
    { title: 'Request body', text: truncateField(requestBody === undefined ? '' : JSON.stringify(requestBody)) },
  ];
  return {
    message: truncateField(`${endpoint.method} ${endpoint.path} failed with ${error.status}: ${error.message}`),
    source: 'web-client',
    stack: error.stack ? truncateField(error.stack) : undefined,
    url: truncateField(url),
    user_agent: truncateField(navigator.userAgent),
    timestamp: new Date().toISOString(),
    error_id: crypto.randomUUID(),
    attachments,
  };
}

/**
 * Reports a 5xx or network failure to the log-error endpoint. Fire and forget: a failing report
 * is never reported again (that could loop) and never disturbs the caller.
 */
export function reportFailure(report: FailureReport): void {
  void (async () => {
    const platform = getPlatform();
    const { apiBase } = await platform.settings.get();
    const body = await buildErrorLog(report);
    await platform.fetch(
      new Request(`${apiBase.replace(/\/$/, '')}${errorLogApi.logError.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
  })().catch(() => undefined);
}
