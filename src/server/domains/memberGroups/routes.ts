import { listMemberGroups } from '../../../shared/api/memberGroups';
import * as memberGroups from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

export const memberGroupRoutes = domainRoutes('memberGroups', (app, { db }) => {
  registerEndpoint(app, listMemberGroups, async ({ tenant, query }) => memberGroups.listMemberGroups(db, tenant.id, query));
});
