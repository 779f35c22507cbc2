import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Services } from '../services.js';
import { escapeHtml } from '../shared/html.js';

/**
 * The default start's stand-ins for Stripe's hosted pages (no STRIPE_SECRET_KEY): a checkout page that says plainly it
 * is test mode, what is bought and its price, with "Pay (test mode)" (the same fulfilment as a webhook, then the
 * documented success page) and "Cancel" (the canceled page); and a billing page showing the subscription, with a way to
 * cancel it. Plain server-rendered HTML with no script, so they work before the web app is built.
 */
export function testModePages(services: Services) {
  const { payments } = services;
  return async (app: FastifyInstance) => {
    // The pages' forms post nothing but the button: the session in the path is all they need.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));

    app.get<{ Params: { id: string } }>('/test-mode/checkout/:id', async (request, reply) => {
      const checkout = await payments.testMode.checkout(request.params.id);
      if (!checkout)
        return sendPage(reply, 404, 'Checkout not found', '<p>This test-mode checkout does not exist (or the server uses Stripe).</p>');
      const price = dollars(checkout.amountCents);
      const item =
        checkout.kind === 'single'
          ? `${checkout.renewal ? 'Renewal' : 'Single upload'}: “${escapeHtml(checkout.mixTitle ?? 'your mix')}”, ${checkout.renewal ? '12 more months' : '12 months'} of hosting`
          : 'Subscription: unlimited uploads; 70% of the fee goes to the music creators you listen to';
      const action = `/test-mode/checkout/${checkout.sessionId}`;
      const body =
        checkout.status === 'open'
          ? `<form method="post" action="${action}/pay"><button type="submit" class="pay">Pay (test mode)</button></form>
             <form method="post" action="${action}/cancel"><button type="submit" class="cancel">Cancel</button></form>`
          : `<p role="status">This checkout is ${checkout.status === 'paid' ? 'paid' : 'canceled'}.</p>
             <form method="post" action="${action}/${checkout.status === 'paid' ? 'pay' : 'cancel'}"><button type="submit" class="pay">Continue</button></form>`;
      return sendPage(
        reply,
        200,
        'Checkout (test mode)',
        `<dl><dt>Item</dt><dd>${item}</dd><dt>Price</dt><dd class="price">${price}${checkout.kind === 'subscription' ? ' a month' : ''}</dd></dl>
         <div class="actions">${body}</div>`,
      );
    });

    app.post<{ Params: { id: string } }>('/test-mode/checkout/:id/pay', async (request, reply) =>
      reply.redirect(await payments.testMode.pay(request.params.id), 303),
    );
    app.post<{ Params: { id: string } }>('/test-mode/checkout/:id/cancel', async (request, reply) =>
      reply.redirect(await payments.testMode.cancel(request.params.id), 303),
    );

    app.get<{ Params: { id: string } }>('/test-mode/billing/:id', async (request, reply) => {
      const userId = await payments.testMode.portalMember(request.params.id);
      if (!userId)
        return sendPage(
          reply,
          404,
          'Billing page expired',
          '<p>This billing page has expired. Open billing again from <a href="/settings">Settings</a>.</p>',
        );
      const billing = await payments.billing.of(userId);
      const subscription = billing.subscription;
      const state = !subscription
        ? '<p>You have no subscription.</p>'
        : `<dl><dt>Plan</dt><dd>Subscription, ${dollars(billing.subscriptionCents)} a month</dd>
             <dt>Status</dt><dd>${escapeHtml(subscription.status)}${subscription.cancelAtPeriodEnd && subscription.active ? ' (canceled: ends at the end of the period)' : ''}</dd>
             <dt>${subscription.active ? (subscription.cancelAtPeriodEnd ? 'Ends' : 'Renews') : 'Ended'}</dt>
             <dd>${formatDate(subscription.active ? subscription.currentPeriodEnd : (subscription.endedAt ?? subscription.currentPeriodEnd))}</dd></dl>
           ${subscription.active && !subscription.cancelAtPeriodEnd ? `<form method="post" action="/test-mode/billing/${request.params.id}/cancel"><button type="submit" class="cancel">Cancel subscription</button></form>` : ''}`;
      return sendPage(reply, 200, 'Billing (test mode)', `${state}<p><a href="/settings">Return to mixcrate</a></p>`);
    });

    app.post<{ Params: { id: string } }>('/test-mode/billing/:id/cancel', async (request, reply) => {
      await payments.testMode.cancelSubscription(request.params.id);
      return reply.redirect(`/test-mode/billing/${request.params.id}`, 303);
    });
  };
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const formatDate = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : '—');

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f4f5;color:#18181b}
main{max-width:32rem;margin:3rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 1px 4px #0002}
.banner{background:#fde68a;color:#422006;font-weight:700;padding:.5rem 1rem;border-radius:8px;margin:0 0 1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}.price{font-size:1.5rem;font-weight:700}
.actions{display:flex;gap:1rem;margin-top:1.5rem}button{font:inherit;padding:.6rem 1.2rem;border-radius:8px;border:2px solid #1e3a8a;cursor:pointer}
.pay{background:#1e3a8a;color:#fff}.cancel{background:#fff;color:#1e3a8a}button:focus-visible,a:focus-visible{outline:3px solid #b45309;outline-offset:2px}
a{color:#1e3a8a}`;

function sendPage(reply: FastifyReply, status: number, title: string, content: string) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · mixcrate</title><style>${STYLE}</style></head>
<body><main><p class="banner" role="note">Test mode: no card is charged and no money moves.</p><h1>${escapeHtml(title)}</h1>${content}</main></body></html>`;
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}
