import type { FastifyInstance } from 'fastify';
import { viewerOf } from '../http/viewer.js';
import type { Services } from '../services.js';
import { requireViewer } from '../shared/viewer.js';
import { bodyOf } from './request.js';

type CreatorTrackLine = Awaited<ReturnType<Services['payments']['creatorEarnings']['tracks']>>[number];

const trackWire = (track: CreatorTrackLine) => ({
  track_id: track.trackId,
  track_title: track.title,
  amount_cents: track.amountCents,
  listened_seconds: track.listenedSeconds,
  subscribers: track.subscribers,
  paid_cents: track.paidCents,
});

/**
 * Payment rows (docs/payments.md#calls) (each answers `{ redirect }`, an absolute URL, as the original client expects), the success page's
 * session confirmation, the Stripe webhook, and the creator rewards ledger as CSV.
 */
export function paymentRoutes(services: Services) {
  const { payments } = services;
  return async (app: FastifyInstance) => {
    app.post('/payment/create-single-purchase-session', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return payments.checkout.createSinglePurchaseSession(viewer.id, bodyOf(request).mix_id);
    });

    app.post('/payment/create-subscription-session', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return payments.checkout.createSubscriptionSession(viewer.id, bodyOf(request).mix_id);
    });

    app.post('/payment/configure-portal-session', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return payments.billing.createPortalSession(viewer.id);
    });

    app.post('/payment/confirm-session', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const fulfilment = await payments.checkout.confirm(viewer.id, bodyOf(request).session_id);
      return { status: fulfilment.status, kind: fulfilment.kind, mix_id: fulfilment.mixId, published: fulfilment.published };
    });

    app.get<{ Params: { file: string } }>('/payment/earnings/:file', async (request, reply) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const period = request.params.file.replace(/\.csv$/, '');
      const csv = await payments.earnings.csv(viewer.id, period);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="mixcrate-earnings-${period}.csv"`)
        .send(csv);
    });

    // A verified creator's own earnings and payouts (docs/creators.md#rest-paths); everyone else gets 403.
    app.get('/creator/earnings', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const view = await payments.creatorEarnings.mine(viewer.id);
      return {
        total_cents: view.totalCents,
        paid_cents: view.paidCents,
        balance_cents: view.balanceCents,
        minimum_cents: services.config.PAYOUT_MINIMUM_CENTS,
        months: view.months.map((month) => ({
          period: month.period,
          creator_name: month.creatorName,
          amount_cents: month.amountCents,
          listened_seconds: month.listenedSeconds,
          subscribers: month.subscribers,
          paid_cents: month.paidCents,
          tracks: month.tracks.map(trackWire),
        })),
        payouts: view.payouts.map((payout) => ({
          period: payout.period,
          amount_cents: payout.amountCents,
          status: payout.status,
          transfer_ref: payout.transferRef,
          paid_at: payout.paidAt,
        })),
      };
    });

    app.get<{ Querystring: { period?: string } }>('/creator/earnings/tracks', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const lines = await payments.creatorEarnings.tracks(viewer.id, { period: request.query.period });
      return { lines: lines.map((line) => ({ period: line.period, creator_name: line.creatorName, ...trackWire(line) })) };
    });

    app.get('/creator/earnings.csv', async (request, reply) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const csv = await payments.creatorEarnings.csv(viewer.id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="mixcrate-my-earnings.csv"')
        .send(csv);
    });

    app.get('/creator/payout-account', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return { account: await payments.payouts.account(viewer.id) };
    });

    app.post('/creator/payout-account', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      const { url } = await payments.payouts.connect(viewer.id);
      return { redirect: url };
    });

    app.post('/payment/payouts/run', async (request) => {
      const viewer = requireViewer(await viewerOf(services, request));
      return payments.payouts.runAsOperator(viewer.id);
    });

    // Aggregates only: no creator, no subscriber (docs/creators.md#public-page).
    app.get('/earnings/public', async () => ({
      months: (await payments.creatorEarnings.publicMonths()).map((month) => ({
        period: month.period,
        creators_cents: month.creatorsCents,
        paid_out_cents: month.paidOutCents,
        waiting_cents: month.waitingCents,
      })),
    }));

    // Stripe signs the exact bytes it sent: this route alone takes its body raw.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      raw.post('/payment/webhook', async (request) => payments.webhooks.handle(request.body, request.headers['stripe-signature']));
    });
  };
}
