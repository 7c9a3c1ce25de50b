import type { FastifyInstance } from 'fastify';
import { getCreditCheck, getMember, patchMember } from '../../shared/api/members';
import type { Database } from '../db/client';
import type { AuthService } from '../services/auth';
import * as members from '../services/members';
import { registerEndpoint } from './endpointRoute';

export function registerMemberRoutes(app: FastifyInstance, db: Database, auth: AuthService): void {
  registerEndpoint(app, getMember, async ({ params, requireMember }) => members.getMember(db, requireMember(), params.id));
  registerEndpoint(app, patchMember, async ({ params, body, requireMember }) => {
    const requester = requireMember();
    const updated = await members.updateOwnMember(db, requester, params.id, body);
    auth.forgetMember(requester);
    return updated;
  });
  registerEndpoint(app, getCreditCheck, async ({ params, requireMember }) => members.getCreditCheck(db, requireMember(), params.id));
}
