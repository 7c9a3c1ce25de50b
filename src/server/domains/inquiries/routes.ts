import { sendInquiry } from '../../../shared/api/inquiries';
import * as inquiries from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

export const inquiryRoutes = domainRoutes('inquiries', (app, deps) => {
  registerEndpoint(app, sendInquiry, async ({ tenant, body, requireMember }) => {
    await inquiries.sendInquiry(deps, tenant, requireMember(), body);
    return { ok: true as const };
  });
});
