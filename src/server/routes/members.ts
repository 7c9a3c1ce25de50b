import type { FastifyInstance } from 'fastify';
import { getCreditCheck, getMember, patchMember } from '../../shared/api/members';
import type { Database } from '../db/client';
import * as members from '../services/members';
import { registerEndpoint } from './endpointRoute';

export function registerMemberRoutes(app: FastifyInstance, db: Database): void {
  registerEndpoint(app, getMember, async ({ params, requireMember }) => members.getMember(db, requireMember(), params.id));
  registerEndpoint(app, patchMember, async ({ params, body, requireMember }) => members.updateOwnMember(db, requireMember(), params.id, body));
  registerEndpoint(app, getCreditCheck, async ({ params, requireMember }) => members.getCreditCheck(db, requireMember(), params.id));
}
