import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Payment, Subscription } from '../src/modules/payments/payment.entity.js';
import { createTestApp, createTestDatabase, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { draftMix, typedTracks } from './support/mixes.js';
import { type StripeStandIn, startStripeStandIn } from './support/stripe-stand-in.js';

/** Issue 26: payments fail closed in production, test-mode records stop counting once Stripe is the provider, only operators read the ledger. */

const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-at-least-32-characters', BETA_CODES: 'free-mix' };
const GRACE_DAYS = 30;
const DAY_MS = 86_400_000;

let databaseUrl: string;
let stripe: StripeStandIn;
let production: TestApp;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  stripe = await startStripeStandIn();
  production = await createTestApp(PRODUCTION, { databaseUrl });
});
afterAll(async () => {
  await production.close();
  await stripe.close();
});

const rest = (app: TestApp, method: 'GET' | 'POST', url: string, member?: Member, payload?: Record<string, unknown>) =>
  app.app.inject({ method, url, payload, headers: member ? { 'x-auth-token': member.token } : {} });

async function draftReadyToPay(app: TestApp, owner: Member): Promise<string> {
  const id = await draftMix(app.services, owner);
  const tracks = await rest(app, 'POST', '/api/mix/update-mix', owner, { mix_id: id, tracks: typedTracks(5) });
  expect(tracks.statusCode, tracks.body).toBe(200);
  return id;
}

const mixRow = async (app: TestApp, mixId: string) =>
  (
    await app.services.orm.em
      .fork()
      .execute<{ status: string; expires_at: string | null }[]>('select status, expires_at from mix where id = ?', [mixId])
  )[0];

describe('production without Stripe and without PAYMENTS_TEST_MODE', () => {
  test('checkout and the billing portal are a 503 that says payments are not configured; both skins', async () => {
    const dj = await signUpMember(production.app);
    const mixId = await draftReadyToPay(production, dj);
    for (const path of ['/api/payment/create-single-purchase-session', '/api/payment/create-subscription-session']) {
      const response = await rest(production, 'POST', path, dj, { mix_id: mixId });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json().message).toMatch(/^Payments are not configured/);
    }
    expect((await rest(production, 'POST', '/api/payment/configure-portal-session', dj)).statusCode).toBe(503);
    const graphql = await gql(
      production.app,
      'mutation($id: ID!) { createSinglePurchaseSession(mixId: $id) { redirect } }',
      { id: mixId },
      dj.token,
    );
    expect(graphql.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    expect(await production.services.orm.em.fork().count(Payment, {})).toBe(0);
  });

  test('the test-mode pages are 404s, paying included', async () => {
    const session = `cs_test_mixcrate_${'0'.repeat(32)}`;
    expect((await rest(production, 'GET', `/test-mode/checkout/${session}`)).statusCode).toBe(404);
    expect((await rest(production, 'POST', `/test-mode/checkout/${session}/pay`)).statusCode).toBe(404);
    expect((await rest(production, 'GET', `/test-mode/billing/${'a'.repeat(48)}`)).statusCode).toBe(404);
  });

  test('billing still reads (no provider, nothing to open) and a BETA code still publishes', async () => {
    const dj = await signUpMember(production.app);
    const billing = await gql<{ billing: { testMode: boolean; canOpenPortal: boolean; openBetaCode: string | null } }>(
      production.app,
      '{ billing { testMode canOpenPortal openBetaCode } }',
      {},
      dj.token,
    );
    // BETA_CODES=free-mix here: the well-known code is shown; a server with other codes (or none) shows none.
    expect(billing.data?.billing).toEqual({ testMode: false, canOpenPortal: false, openBetaCode: 'free-mix' });
    const mixId = await draftReadyToPay(production, dj);
    expect((await rest(production, 'POST', '/api/mix/publish-mix', dj, { mix_id: mixId, code: 'free-mix' })).statusCode).toBe(200);
  });
});

describe('PAYMENTS_TEST_MODE=1 in production', () => {
  test('opts in to the test-mode checkout', async () => {
    const optedIn = await createTestApp({ ...PRODUCTION, PAYMENTS_TEST_MODE: '1' }, { databaseUrl });
    try {
      const dj = await signUpMember(optedIn.app);
      const mixId = await draftReadyToPay(optedIn, dj);
      const session = await rest(optedIn, 'POST', '/api/payment/create-single-purchase-session', dj, { mix_id: mixId });
      expect(session.statusCode, session.body).toBe(200);
      expect(session.json().redirect).toMatch(/\/test-mode\/checkout\/cs_test_mixcrate_/);
    } finally {
      await optedIn.close();
    }
  });
});

describe('test-mode records once Stripe is configured', () => {
  test('a test-mode subscription publishes nothing, renews nothing, and its mixes end after the grace period', async () => {
    const shared = { JWT_SECRET: PRODUCTION.JWT_SECRET, SUBSCRIPTION_GRACE_DAYS: String(GRACE_DAYS) };
    const testMode = await createTestApp(shared, { databaseUrl });
    let dj: Member;
    let hosted: string;
    try {
      dj = await signUpMember(testMode.app);
      hosted = await draftReadyToPay(testMode, dj);
      const { redirect } = (await rest(testMode, 'POST', '/api/payment/create-subscription-session', dj, { mix_id: hosted })).json();
      const paid = await rest(testMode, 'POST', `${new URL(redirect).pathname}/pay`);
      expect(paid.statusCode).toBe(303);
      expect(await mixRow(testMode, hosted)).toEqual({ status: 'published', expires_at: null });
    } finally {
      await testMode.close();
    }

    const withStripe = await createTestApp(
      { ...shared, STRIPE_SECRET_KEY: 'sk_test_mixcrate_stand_in', STRIPE_API_URL: stripe.url },
      { databaseUrl },
    );
    try {
      const another = await draftReadyToPay(withStripe, dj);
      expect((await rest(withStripe, 'POST', '/api/mix/publish-mix', dj, { mix_id: another })).statusCode).toBe(402);
      const billing = await gql<{ billing: { subscribed: boolean } }>(withStripe.app, '{ billing { subscribed } }', {}, dj.token);
      expect(billing.data?.billing.subscribed).toBe(false);

      const em = withStripe.services.orm.em.fork();
      const subscription = await em.findOneOrFail(Subscription, { user: dj.id, provider: 'test' });
      subscription.currentPeriodEnd = new Date(Date.now() - DAY_MS);
      await em.flush();
      const before = Date.now();
      await withStripe.services.payments.sweep();
      const row = await mixRow(withStripe, hosted);
      expect(row.status).toBe('published');
      const ends = new Date(row.expires_at as string).getTime();
      expect(ends).toBeGreaterThanOrEqual(before + GRACE_DAYS * DAY_MS - 1000);
      expect(ends).toBeLessThanOrEqual(Date.now() + GRACE_DAYS * DAY_MS + 1000);
      const renewed = await withStripe.services.orm.em.fork().findOneOrFail(Subscription, { id: subscription.id });
      expect(renewed.currentPeriodEnd?.getTime()).toBe(subscription.currentPeriodEnd.getTime());
    } finally {
      await withStripe.close();
    }
  });
});

describe('the creator rewards ledger', () => {
  test('a member gets 403 on both skins; an operator made with the admin command reads it', async () => {
    const member = await signUpMember(production.app);
    const query = '{ earningsPeriods earnings(period: "2026-01") { period paidCents } }';
    const refused = await gql(production.app, query, {}, member.token);
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(refused.errors?.[0]?.message).toBe('Only operators may read the creator rewards ledger');
    expect((await rest(production, 'GET', '/api/payment/earnings/2026-01.csv', member)).statusCode).toBe(403);

    expect(await production.services.roles.grant(member.email, 'operator')).toBe('member');
    const allowed = await gql<{ earnings: { period: string } }>(production.app, query, {}, member.token);
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data?.earnings.period).toBe('2026-01');
    expect((await rest(production, 'GET', '/api/payment/earnings/2026-01.csv', member)).statusCode).toBe(200);

    expect(await production.services.roles.revoke(member.email, 'operator')).toBe(true);
    expect((await rest(production, 'GET', '/api/payment/earnings/2026-01.csv', member)).statusCode).toBe(403);
  });

  test('a moderator is no operator; unknown roles and members are clear errors', async () => {
    const member = await signUpMember(production.app);
    await production.services.roles.grant(member.email, 'moderator');
    expect((await rest(production, 'GET', '/api/payment/earnings/2026-01.csv', member)).statusCode).toBe(403);
    await expect(production.services.roles.grant(member.email, 'admin')).rejects.toMatchObject({ status: 400 });
    await expect(production.services.roles.grant('nobody@example.com', 'operator')).rejects.toMatchObject({ status: 404 });
  });
});

describe('BETA codes', () => {
  test('wrong codes are limited per member: after ten, even the right code waits (429), and others are not affected', async () => {
    const guesser = await signUpMember(production.app);
    const mixId = await draftReadyToPay(production, guesser);
    for (let attempt = 0; attempt < 10; attempt++) {
      const wrong = await rest(production, 'POST', '/api/mix/publish-mix', guesser, { mix_id: mixId, code: `guess-${attempt}` });
      expect(wrong.statusCode, wrong.body).toBe(400);
    }
    const blocked = await rest(production, 'POST', '/api/mix/publish-mix', guesser, { mix_id: mixId, code: 'free-mix' });
    expect(blocked.statusCode, blocked.body).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many attempts/);
    expect((await mixRow(production, mixId)).status).toBe('draft');

    const other = await signUpMember(production.app);
    const otherMix = await draftReadyToPay(production, other);
    expect((await rest(production, 'POST', '/api/mix/publish-mix', other, { mix_id: otherMix, code: 'free-mix' })).statusCode).toBe(200);
  });
});
