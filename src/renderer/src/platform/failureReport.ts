import * as errorLogApi from '../../../shared/api/errorLog';
import type { FailureReport } from '../../../shared/api/errorLog';
import type { Platform } from './types';

/**
 * Reports a 5xx or network failure to the log-error endpoint. Fire and forget: a failing report
 * is never reported again (that could loop) and never disturbs the caller.
 */
export function sendFailureReport(platform: Platform, report: FailureReport): void {
  void (async () => {
    const { apiBase } = await platform.settings.get();
    const body = await errorLogApi.buildErrorLog(report, { source: 'web-client', userAgent: navigator.userAgent });
    await platform.fetch(
      new Request(`${apiBase.replace(/\/$/, '')}${errorLogApi.logError.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
  })().catch(() => undefined);
}
