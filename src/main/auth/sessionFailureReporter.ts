import { errorLogApi, type FailureReport } from '../../shared/api';
import { SUBDOMAIN_HEADER } from '../../shared/domain/http';
import type { NetworkFetch, SessionServer } from './authSession';

export interface SessionFailureReporterOptions {
  fetch: NetworkFetch;
  userAgent: string;
}

/**
 * Posts the session calls' failures from main to `{apiBase}/log-error/` of the server the call went
 * to, with the same body the renderer sends for its own calls (shared builder). Fire and forget: a
 * failing report is never reported again and never disturbs the session call.
 */
export function createSessionFailureReporter(options: SessionFailureReporterOptions) {
  return (failure: Omit<FailureReport, 'requestBody'>, { apiBase, subdomain }: SessionServer): void => {
    void (async () => {
      const body = await errorLogApi.buildErrorLog({ ...failure, requestBody: undefined }, { source: 'desktop-main', userAgent: options.userAgent });
      const headers = new Headers({ 'content-type': 'application/json' });
      if (subdomain) headers.set(SUBDOMAIN_HEADER, subdomain);
      await options.fetch(`${apiBase.replace(/\/$/, '')}${errorLogApi.logError.path}`, {
        method: errorLogApi.logError.method,
        headers,
        body: JSON.stringify(body),
        redirect: 'error',
      });
    })().catch(() => undefined);
  };
}
