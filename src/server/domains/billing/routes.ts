import {
  cancelMembership,
  getMembership,
  listBillingPlans,
  listPayments,
  registerCardAndSubscribe,
  resumeMembership,
  subscribeToPlan,
} from '../../../shared/api/billing';
import { escapeHtml } from '../../mail/render';
import { membershipView } from './membership';
import { listPayments as paymentHistory, receiptByToken } from './payments';
import * as plans from './plans';
import { handleWebhook } from './webhooks';
import { registerEndpoint } from '../../routes/endpointRoute';
import { domainRoutes } from '../plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Queues a renewal job for every membership due now; returns the task ids (tests drive it with the clock). */
    sweepRenewals(): Promise<number[]>;
  }
}

export const billingRoutes = domainRoutes('billing', (app, deps) => {
  registerEndpoint(app, listBillingPlans, async ({ tenant }) => plans.listPlans(deps, tenant));
  registerEndpoint(app, getMembership, async ({ tenant, requireMember }) => membershipView(deps.db, tenant, requireMember()));
  registerEndpoint(app, registerCardAndSubscribe, async ({ tenant, params, query, body, requireMember }) =>
    plans.registerCardAndSubscribe(deps, tenant, requireMember(), params.planId, body, query.payment_method_id),
  );
  registerEndpoint(app, subscribeToPlan, async ({ tenant, params, body, requireMember }) =>
    plans.subscribe(deps, tenant, requireMember(), params.planId, body),
  );
  registerEndpoint(app, cancelMembership, async ({ tenant, requireMember }) => plans.cancelMembership(deps, tenant, requireMember()));
  registerEndpoint(app, resumeMembership, async ({ tenant, requireMember }) => plans.resumeMembership(deps, tenant, requireMember()));
  registerEndpoint(app, listPayments, async ({ query, requireMember }) => paymentHistory(deps.db, requireMember(), query));

  // Outside the contract: the provider calls it (signed, checked on the raw body) and a receipt link is opened in a browser tab.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
    scope.post('/payments/webhooks/portone/', { schema: { hide: true } }, async (request) => {
      const result = await handleWebhook(deps, typeof request.body === 'string' ? request.body : '', request.headers);
      return { ok: true, replayed: result.replayed };
    });
  });
  app.get<{ Params: { token: string } }>('/receipts/:token/', { schema: { hide: true } }, async (request, reply) => {
    const receipt = await receiptByToken(deps.db, request.params.token);
    if (!receipt) return reply.status(404).send({ code: 'not_found', message: 'The data does not exist.' });
    const { payment, plan, tenant } = receipt;
    const amount = new Intl.NumberFormat('ko-KR', { style: 'currency', currency: payment.currency }).format(payment.amount);
    const rows: [string, string][] = [
      ['Receipt no.', payment.orderId],
      ['Paid at', payment.paidAt?.toISOString() ?? ''],
      ['Plan', `${plan.enName} (${plan.koName})`],
      ['Amount', amount],
      ['Credits', `${Number(payment.credit).toLocaleString('en-US')} (${payment.periodStart} – ${payment.periodEnd})`],
      ['Card provider', payment.provider],
    ];
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Receipt ${escapeHtml(payment.orderId)}</title></head><body><main><h1>${escapeHtml(tenant.name)}: receipt</h1><p>Demo payment: no card was charged.</p><table><tbody>${rows
      .map(([label, value]) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
      .join('')}</tbody></table></main></body></html>`;
    return reply.type('text/html; charset=utf-8').send(html);
  });
});
