import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostingEnds } from '../src/modules/mixes/mix-lifecycle.js';
import { Entitlement, Payment, PaymentEvent, Subscription, SubscriptionPayment } from '../src/modules/payments/payment.entity.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { draftMix, typedTracks } from './support/mixes.js';
import { type StripeStandIn, startStripeStandIn } from './support/stripe-stand-in.js';

const WEBHOOK_SECRET = 'whsec_mixcrate_test_secret';
const GRACE_DAYS = 30;
const DAY_MS = 86_400_000;

let stripe: StripeStandIn;
let t: TestApp;
let dj: Member;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  t = await createTestApp({
    PUBLIC_URL: 'https://mixcrate.test',
    STRIPE_SECRET_KEY: 'sk_test_mixcrate_stand_in',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    SUBSCRIPTION_GRACE_DAYS: String(GRACE_DAYS),
  });
  dj = await signUpMember(t.app);
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

const rest = (url: string, member?: Member, payload: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers: member ? { 'x-auth-token': member.token } : {} });

const webhook = (payload: string, signature: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payment/webhook',
    payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
  });

async function sendEvent(type: string, object: Record<string, unknown>, options: { id?: string; created?: number } = {}) {
  const event = stripe.signedEvent(type, object, WEBHOOK_SECRET, options);
  const response = await webhook(event.payload, event.signature);
  expect(response.statusCode, response.body).toBe(200);
  return { ...(response.json() as { received: boolean; duplicate: boolean }), id: event.id };
}

async function draftReadyToPay(owner = dj): Promise<string> {
  const id = await draftMix(t.services, owner);
  const tracks = await rest('/api/mix/update-mix', owner, { mix_id: id, tracks: typedTracks(5) });
  expect(tracks.statusCode, tracks.body).toBe(200);
  return id;
}

/** A single-purchase checkout for the mix; the session's id at the stand-in. */
async function singleSession(mixId: string, owner = dj): Promise<string> {
  const response = await rest('/api/payment/create-single-purchase-session', owner, { mix_id: mixId });
  expect(response.statusCode, response.body).toBe(200);
  const redirect = response.json().redirect as string;
  const session = [...stripe.sessions.values()].find((candidate) => candidate.url === redirect);
  expect(session).toBeDefined();
  return session?.id as string;
}

const mixRow = async (mixId: string) => {
  const [row] = await t.services.orm.em
    .fork()
    .execute<{ status: string; expires_at: string | null; published_at: string | null }[]>(
      'select status, expires_at, published_at from mix where id = ?',
      [mixId],
    );
  const dateOf = (value: string | null) => (value === null ? null : new Date(value));
  return { status: row.status, expires_at: dateOf(row.expires_at), published_at: dateOf(row.published_at) };
};
const entitlementsOf = (mixId: string) => t.services.orm.em.fork().count(Entitlement, { mix: mixId });

describe('checkout sessions through the stripe SDK', () => {
  test('a single purchase: $4.00, the member and the mix in metadata and client_reference_id, the documented return pages', async () => {
    const mixId = await draftReadyToPay();
    const response = await rest('/api/payment/create-single-purchase-session', dj, { mix_id: mixId });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().redirect).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\//);
    const sent = stripe.requests.filter((request) => request.path === '/v1/checkout/sessions').at(-1)?.body;
    expect(sent).toMatchObject({
      mode: 'payment',
      client_reference_id: dj.id,
      metadata: { userId: dj.id, mixId, kind: 'single' },
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '400' } }],
      success_url: `https://mixcrate.test/upload/payment/success-purchase?session_id={CHECKOUT_SESSION_ID}&mix_id=${mixId}`,
      cancel_url: `https://mixcrate.test/upload/payment/canceled-purchase?mix_id=${mixId}`,
      customer_email: dj.email,
    });
  });

  test('a subscription: monthly, unlimited uploads; GraphQL twin answers the same redirect shape', async () => {
    const member = await signUpMember(t.app);
    const mixId = await draftReadyToPay(member);
    const answer = await gql<{ createSubscriptionSession: { redirect: string } }>(
      t.app,
      'mutation ($mixId: ID) { createSubscriptionSession(mixId: $mixId) { redirect } }',
      { mixId },
      member.token,
    );
    expect(answer.data?.createSubscriptionSession.redirect).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const sent = stripe.requests.filter((request) => request.path === '/v1/checkout/sessions').at(-1)?.body;
    expect(sent).toMatchObject({
      mode: 'subscription',
      line_items: [{ price_data: { unit_amount: '999', recurring: { interval: 'month' } } }],
      subscription_data: { metadata: { userId: member.id, mixId } },
      success_url: `https://mixcrate.test/upload/payment/success-subscription?session_id={CHECKOUT_SESSION_ID}&mix_id=${mixId}`,
    });
  });

  test('the billing portal opens for a member with a customer id; a member without one gets a 400', async () => {
    const stranger = await signUpMember(t.app);
    const refused = await rest('/api/payment/configure-portal-session', stranger);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^Billing opens once you have paid/);

    const mixId = await draftReadyToPay(stranger);
    const sessionId = await singleSession(mixId, stranger);
    const session = stripe.pay(sessionId);
    await sendEvent('checkout.session.completed', session);
    const portal = await rest('/api/payment/configure-portal-session', stranger);
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json().redirect).toMatch(/^https:\/\/billing\.stripe\.test\//);
    expect(stripe.requests.at(-1)?.body).toEqual({ customer: session.customer, return_url: 'https://mixcrate.test/settings' });
  });
});

describe('publishing on evidence', () => {
  test('an unpaid session is no evidence: 402, still a draft', async () => {
    const mixId = await draftReadyToPay();
    const sessionId = await singleSession(mixId);
    expect((await rest('/api/mix/publish-mix', dj, { mix_id: mixId })).statusCode).toBe(402);
    const withSession = await rest('/api/mix/publish-mix', dj, { mix_id: mixId, session_id: sessionId });
    expect(withSession.statusCode).toBe(402);
    expect(withSession.json().message).toBe('Publishing needs a payment for this mix, an active subscription or a BETA code');
    expect((await mixRow(mixId)).status).toBe('draft');
  });

  test('the success page’s return publishes by looking the session up, without waiting for the webhook', async () => {
    const mixId = await draftReadyToPay();
    const sessionId = await singleSession(mixId);
    stripe.pay(sessionId);
    const published = await rest('/api/mix/publish-mix', dj, { mix_id: mixId, session_id: sessionId });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().current_mix).toMatchObject({ _id: mixId, status: 'published', ExpiringIn: expect.any(Number) });
    const row = await mixRow(mixId);
    expect(row.expires_at).toEqual(hostingEnds(row.published_at as Date));
    expect(stripe.requests.some((request) => request.method === 'GET' && request.path === `/v1/checkout/sessions/${sessionId}`)).toBe(true);
    // The webhook arriving afterwards changes nothing.
    expect((await sendEvent('checkout.session.completed', stripe.sessions.get(sessionId) ?? {})).duplicate).toBe(false);
    expect(await entitlementsOf(mixId)).toBe(1);
  });

  test('a session that paid another amount, currency or mode than we asked publishes nothing; its payment is failed', async () => {
    for (const tampered of [{ amount_total: 1 }, { currency: 'eur' }, { mode: 'subscription' }]) {
      const mixId = await draftReadyToPay();
      const sessionId = await singleSession(mixId);
      const session = stripe.pay(sessionId);
      Object.assign(session, tampered);
      const response = await rest('/api/mix/publish-mix', dj, { mix_id: mixId, session_id: sessionId });
      expect(response.statusCode, JSON.stringify(tampered)).toBe(402);
      expect((await mixRow(mixId)).status).toBe('draft');
      const payment = await t.services.orm.em.fork().findOneOrFail(Payment, { providerRef: sessionId });
      expect(payment.status).toBe('failed');
      expect((await sendEvent('checkout.session.completed', session)).duplicate).toBe(false);
      expect((await mixRow(mixId)).status).toBe('draft');
    }
  });

  test('someone else’s session, or a session for another mix, publishes nothing', async () => {
    const mixId = await draftReadyToPay();
    const other = await draftReadyToPay();
    const sessionId = await singleSession(mixId);
    stripe.pay(sessionId);
    const stranger = await signUpMember(t.app);
    expect((await rest('/api/payment/confirm-session', stranger, { session_id: sessionId })).statusCode).toBe(404);
    const wrongMix = await rest('/api/mix/publish-mix', dj, { mix_id: other, session_id: sessionId });
    expect(wrongMix.statusCode).toBe(400);
    expect((await mixRow(other)).status).toBe('draft');
    expect((await rest('/api/payment/confirm-session', dj, { session_id: 'cs_test_unknown' })).statusCode).toBe(404);
  });
});

describe('the webhook', () => {
  test('checkout.session.completed publishes the paid-for draft; the same event again has no second effect', async () => {
    const mixId = await draftReadyToPay();
    const sessionId = await singleSession(mixId);
    const session = stripe.pay(sessionId);
    const first = await sendEvent('checkout.session.completed', session);
    expect(first.duplicate).toBe(false);
    expect((await mixRow(mixId)).status).toBe('published');
    const replay = await sendEvent('checkout.session.completed', session, { id: first.id });
    expect(replay.duplicate).toBe(true);
    expect(await entitlementsOf(mixId)).toBe(1);
    const payment = await t.services.orm.em.fork().findOneOrFail(Payment, { providerRef: sessionId });
    expect(payment).toMatchObject({ status: 'paid', amountCents: 400 });
  });

  test('a forged signature is a 400 and changes nothing; so is a signed body altered, and no signature at all', async () => {
    const mixId = await draftReadyToPay();
    const sessionId = await singleSession(mixId);
    const session = stripe.pay(sessionId);
    const forged = stripe.signedEvent('checkout.session.completed', session, 'whsec_someone_else');
    const refused = await webhook(forged.payload, forged.signature);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/signature/i);
    const signed = stripe.signedEvent('checkout.session.completed', session, WEBHOOK_SECRET);
    expect((await webhook(signed.payload.replace('"complete"', '"complete" '), signed.signature)).statusCode).toBe(400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/payment/webhook',
      payload: signed.payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await mixRow(mixId)).status).toBe('draft');
    expect(await t.services.orm.em.fork().count(Payment, { providerRef: sessionId, status: 'paid' })).toBe(0);
    expect(await t.services.orm.em.fork().count(PaymentEvent, { id: forged.id })).toBe(0);
  });

  test('a delayed payment: completed while unpaid publishes nothing; async_payment_succeeded publishes', async () => {
    const mixId = await draftReadyToPay();
    const sessionId = await singleSession(mixId);
    const pending = stripe.pay(sessionId, { paymentStatus: 'unpaid' });
    await sendEvent('checkout.session.completed', pending);
    expect((await mixRow(mixId)).status).toBe('draft');
    const succeeded = { ...pending, payment_status: 'paid' };
    stripe.sessions.set(sessionId, succeeded);
    await sendEvent('checkout.session.async_payment_succeeded', succeeded);
    expect((await mixRow(mixId)).status).toBe('published');
  });

  test('two fulfilments at once (the webhook and the success page’s return): one payment, one entitlement', async () => {
    const mixId = await draftReadyToPay();
    const sessionId = await singleSession(mixId);
    const session = stripe.pay(sessionId);
    const events = [1, 2, 3].map(() => stripe.signedEvent('checkout.session.completed', session, WEBHOOK_SECRET));
    const answers = await Promise.all([
      ...events.map((event) => webhook(event.payload, event.signature)),
      rest('/api/mix/publish-mix', dj, { mix_id: mixId, session_id: sessionId }),
      rest('/api/payment/confirm-session', dj, { session_id: sessionId }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await entitlementsOf(mixId)).toBe(1);
    expect((await mixRow(mixId)).status).toBe('published');
  });
});

describe('subscriptions', () => {
  test('subscribe, publish unlimited, invoices recorded once, then canceled: mixes expire a grace period after it ends; events out of order', async () => {
    const member = await signUpMember(t.app);
    const mixId = await draftReadyToPay(member);
    const { redirect } = (await rest('/api/payment/create-subscription-session', member, { mix_id: mixId })).json();
    const session = [...stripe.sessions.values()].find((candidate) => candidate.url === redirect) ?? {};
    const paid = stripe.pay(session.id as string);
    const subscriptionId = paid.subscription as string;

    // Out of order: the first invoice arrives before the checkout's completion.
    const invoice = stripe.invoice(subscriptionId, 999);
    await sendEvent('invoice.paid', invoice);
    expect(await t.services.orm.em.fork().count(SubscriptionPayment, { providerRef: invoice.id as string })).toBe(1);
    await sendEvent('checkout.session.completed', paid);
    expect(await mixRow(mixId)).toMatchObject({ status: 'published', expires_at: null });
    await sendEvent('invoice.paid', invoice);
    expect(await t.services.orm.em.fork().count(SubscriptionPayment, { subscription: { providerRef: subscriptionId } })).toBe(1);

    // Unlimited uploads while active.
    const second = await draftReadyToPay(member);
    expect((await rest('/api/mix/publish-mix', member, { mix_id: second })).statusCode).toBe(200);
    expect(await mixRow(second)).toMatchObject({ status: 'published', expires_at: null });

    // Canceled (Stripe's deleted event), then an older "updated: active" arrives late and changes nothing: events are
    // read as "look again", and Stripe holds the subscription canceled.
    const created = Math.floor(Date.now() / 1000);
    const endedAt = created - 60;
    const activeState = structuredClone(stripe.subscriptions.get(subscriptionId) ?? {});
    const canceled = stripe.setSubscription(subscriptionId, { status: 'canceled', ended_at: endedAt, canceled_at: endedAt });
    await sendEvent('customer.subscription.deleted', canceled, { created });
    await sendEvent('customer.subscription.updated', activeState, { created: created - 120 });
    const held = await t.services.orm.em.fork().findOneOrFail(Subscription, { providerRef: subscriptionId });
    expect(held.status).toBe('canceled');
    const expected = new Date(endedAt * 1000 + GRACE_DAYS * DAY_MS);
    expect((await mixRow(mixId)).expires_at).toEqual(expected);
    expect((await mixRow(second)).expires_at).toEqual(expected);

    // No subscription, no publishing.
    const third = await draftReadyToPay(member);
    expect((await rest('/api/mix/publish-mix', member, { mix_id: third })).statusCode).toBe(402);

    const billing = await gql<{
      billing: {
        subscribed: boolean;
        subscription: { status: string; active: boolean };
        mixes: { hosting: string; expiringIn: number; canRenew: boolean }[];
      };
    }>(t.app, '{ billing { subscribed subscription { status active } mixes { hosting expiringIn canRenew } } }', {}, member.token);
    expect(billing.data?.billing).toMatchObject({ subscribed: false, subscription: { status: 'canceled', active: false } });
    expect(billing.data?.billing.mixes).toEqual([
      { hosting: 'SUBSCRIPTION', expiringIn: GRACE_DAYS, canRenew: true },
      { hosting: 'SUBSCRIPTION', expiringIn: GRACE_DAYS, canRenew: true },
    ]);
  });

  test('customer.subscription.updated moves the period; a new subscription brings expiring mixes back', async () => {
    const member = await signUpMember(t.app);
    const mixId = await draftReadyToPay(member);
    const subscribe = async () => {
      const { redirect } = (await rest('/api/payment/create-subscription-session', member, { mix_id: mixId })).json();
      const session = [...stripe.sessions.values()].find((candidate) => candidate.url === redirect) ?? {};
      const paid = stripe.pay(session.id as string);
      await sendEvent('checkout.session.completed', paid);
      return paid.subscription as string;
    };
    const first = await subscribe();
    const endedAt = Math.floor(Date.now() / 1000) - 10;
    await sendEvent('customer.subscription.deleted', stripe.setSubscription(first, { status: 'canceled', ended_at: endedAt }));
    expect((await mixRow(mixId)).expires_at).not.toBeNull();
    await subscribe();
    expect((await mixRow(mixId)).expires_at).toBeNull();
  });
});
