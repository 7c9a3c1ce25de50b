import type { FastifyInstance } from 'fastify';
import { sendInquiry } from '../../../shared/api/inquiries';
import type { InquiryDeps } from './service';
import * as inquiries from './service';
import { registerEndpoint } from '../../routes/endpointRoute';

export function registerInquiryRoutes(app: FastifyInstance, deps: InquiryDeps): void {
  registerEndpoint(app, sendInquiry, async ({ tenant, body, requireMember }) => {
    await inquiries.sendInquiry(deps, tenant, requireMember(), body);
    return { ok: true as const };
  });
}
