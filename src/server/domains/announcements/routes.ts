import { createAnnouncement, deleteAnnouncement, listAdminAnnouncements, patchAnnouncement } from '../../../shared/api/admin/announcements';
import { getActiveAnnouncement, getLatestAnnouncement } from '../../../shared/api/announcements';
import * as announcements from './service';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

export const announcementRoutes = domainRoutes('announcements', (app, { db }) => {
  registerEndpoint(app, getActiveAnnouncement, async ({ tenant }) => ({ announcement: await announcements.activeAnnouncement(db, tenant.id) }));
  registerEndpoint(app, getLatestAnnouncement, async ({ tenant }) => ({ announcement: await announcements.latestAnnouncement(db, tenant.id) }));

  registerEndpoint(app, listAdminAnnouncements, async ({ tenant, query }) => announcements.listAnnouncements(db, tenant.id, query));
  registerEndpoint(app, createAnnouncement, async ({ tenant, body, requireMember }) => announcements.createAnnouncement(db, tenant.id, requireMember(), body));
  registerEndpoint(app, patchAnnouncement, async ({ tenant, params, body, requireMember }) =>
    announcements.updateAnnouncement(db, tenant.id, requireMember(), params.id, body),
  );
  registerEndpoint(app, deleteAnnouncement, async ({ tenant, params, requireMember }) => {
    await announcements.deleteAnnouncement(db, tenant.id, requireMember(), params.id);
    return { ok: true as const };
  });
});
