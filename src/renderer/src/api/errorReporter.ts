import type { FailureReport } from '../../../shared/api/errorLog';
export { isReportedStatus } from '../../../shared/api/apiError';
import { getPlatform } from '../platform';
import { sendFailureReport } from '../platform/failureReport';

/** Reports a 5xx or network failure of a call to the log-error endpoint, through the platform in use. */
export const reportFailure = (report: FailureReport): void => sendFailureReport(getPlatform(), report);
