import type { FastifyInstance } from 'fastify';
import { sendInquiry } from '../../shared/api/inquiries';
import type { InquiryDeps } from '../services/inquiries';
import * as inquiries from '../services/inquiries';
import { registerEndpoint } from './endpointRoute';

export function registerInquiryRoutes(app: FastifyInstance, deps: InquiryDeps): void {
  registerEndpoint(app, sendInquiry, async ({ tenant, body, requireMember }) => {
    await inquiries.sendInquiry(deps, tenant, requireMember(), body);
    return { ok: true as const };
  });
}
