import { logError, truncateField } from '../../../shared/api/errorLog';
import { errorLogs } from '../../db/schema';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

/** Client error reports (spec §7): every text field is cut to 2900 characters before it is stored. */
export const errorLogRoutes = domainRoutes('errorLog', (app, { db, config }) => {
  // Public (a crash may happen before sign-in), so limited per client: it must not fill the database.
  const rateLimit = { name: 'log-error', limit: config.ERROR_LOG_RATE_LIMIT, windowMs: 60_000 };
  registerEndpoint(
    app,
    logError,
    async ({ body, tenant, member }) => {
      await db.insert(errorLogs).values({
        tenantId: tenant.id,
        memberId: member?.id ?? null,
        message: truncateField(body.message),
        source: truncateField(body.source),
        stack: body.stack === undefined ? null : truncateField(body.stack),
        url: truncateField(body.url),
        userAgent: truncateField(body.user_agent),
        clientTimestamp: truncateField(body.timestamp),
        errorId: truncateField(body.error_id),
        attachments: body.attachments.map((block) => ({ title: truncateField(block.title), text: truncateField(block.text) })),
      });
      return { ok: true as const };
    },
    { rateLimit },
  );
});
