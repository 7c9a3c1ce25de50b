import { getCreditAllocation, getCreditUsage, listCreditPurchases, updateCreditAllocation } from '../../../shared/api/admin/credits';
import { getDashboard, getDashboardUsage } from '../../../shared/api/admin/dashboards';
import { listCredits } from '../../../shared/api/credits';
import * as adminCredits from './admin';
import * as dashboards from './dashboards';
import { listCreditEntries } from './entries';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** The member's credit entries, the admin credit screens and the admin dashboard. */
export const creditRoutes = domainRoutes('credits', (app, { db }) => {
  registerEndpoint(app, listCredits, async ({ query, requireMember }) => {
    const member = requireMember();
    const individual = member.memberType === 'individual';
    return listCreditEntries(db, member.tenantId, query, {
      scope: individual ? { kind: 'member', memberId: member.id } : { kind: 'pool' },
      withTransactions: member.isAdmin || individual,
    });
  });
  registerEndpoint(app, listCreditPurchases, async ({ query, requireMember }) =>
    listCreditEntries(db, requireMember().tenantId, query, { scope: { kind: 'pool' }, withTransactions: true }),
  );
  registerEndpoint(app, getCreditAllocation, async ({ query, requireMember }) => adminCredits.creditAllocation(db, requireMember(), query));
  registerEndpoint(app, updateCreditAllocation, async ({ body, requireMember }) => adminCredits.updateCreditAllocation(db, requireMember(), body));
  registerEndpoint(app, getCreditUsage, async ({ query, requireMember }) => adminCredits.creditUsageReport(db, requireMember(), query));
  registerEndpoint(app, getDashboard, async ({ requireMember }) => dashboards.dashboard(db, requireMember()));
  registerEndpoint(app, getDashboardUsage, async ({ query, requireMember }) => dashboards.dashboardUsage(db, requireMember(), query));
});
