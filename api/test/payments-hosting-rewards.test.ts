import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Listen } from '../src/modules/listens/listen.entity.js';
import { hostingEnds } from '../src/modules/mixes/mix-lifecycle.js';
import { Entitlement, RewardAllocation, Subscription, SubscriptionPayment } from '../src/modules/payments/payment.entity.js';
import { paymentPolicy } from '../src/modules/payments/payment.policy.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { draftMix } from './support/mixes.js';

const GRACE_DAYS = 10;
const DAY_MS = 86_400_000;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://mixcrate.test', SUBSCRIPTION_GRACE_DAYS: String(GRACE_DAYS) });
});
afterAll(() => t.close());

const rest = (method: 'GET' | 'POST', url: string, member?: Member, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, payload, headers: member ? { 'x-auth-token': member.token } : {} });
const sql = <T>(query: string, params: unknown[] = []) => t.services.orm.em.fork().execute<T[]>(query, params);
const pathOf = (url: string) => new URL(url).pathname;

/** A draft whose tracklist has start times: five tracks of 60 s, each by its own artist (track 5 by two). */
async function draftWithTimedTracklist(owner: Member, artists = ['Ann', 'Bo', 'Cy', 'Dee', 'Eve & Fay']): Promise<string> {
  const id = await draftMix(t.services, owner);
  const tracks = artists.map((artist, index) => ({
    name: `Song ${index + 1}`,
    creators: artist,
    is_manual: true,
    start_time: index * 60,
    end_time: index * 60 + 60,
  }));
  const response = await rest('POST', '/api/mix/update-mix', owner, { mix_id: id, tracks });
  expect(response.statusCode, response.body).toBe(200);
  // Two creators on the last track.
  await sql(
    `update track set creators = '[{"id":null,"name":"Eve"},{"id":null,"name":"Fay"}]'::jsonb where id = (select track_id from mix_track where mix_id = ? and position = 4)`,
    [id],
  );
  return id;
}

/** Checkout in test mode and press Pay; answers the session id. */
async function payInTestMode(member: Member, path: string, payload: Record<string, unknown>): Promise<string> {
  const session = await rest('POST', path, member, payload);
  expect(session.statusCode, session.body).toBe(200);
  const checkout = pathOf(session.json().redirect);
  const paid = await rest('POST', `${checkout}/pay`);
  expect(paid.statusCode).toBe(303);
  return checkout.split('/').pop() as string;
}

const mixOf = async (mixId: string) => {
  const [row] = await sql<{ status: string; expires_at: string | null; published_at: string | null }>(
    'select status, expires_at, published_at from mix where id = ?',
    [mixId],
  );
  return {
    status: row.status,
    expiresAt: row.expires_at ? new Date(row.expires_at) : null,
    publishedAt: row.published_at ? new Date(row.published_at) : null,
  };
};
const publicMixFound = async (mixId: string) => (await rest('GET', `/api/mix/public/${mixId}`)).json().mix_found as boolean;
const shiftMix = (mixId: string, days: number) =>
  sql(
    'update mix set published_at = published_at - make_interval(days => ?), expires_at = expires_at - make_interval(days => ?) where id = ?',
    [days, days, mixId],
  );

describe('hosting: expiry and renewal', () => {
  test('a single purchase hosts for 12 months; expired it leaves every public page, the owner sees it and renews by paying again', async () => {
    const owner = await signUpMember(t.app);
    const mixId = await draftWithTimedTracklist(owner);
    await payInTestMode(owner, '/api/payment/create-single-purchase-session', { mix_id: mixId });
    const published = await mixOf(mixId);
    expect(published.expiresAt).toEqual(hostingEnds(published.publishedAt as Date));
    expect(await publicMixFound(mixId)).toBe(true);

    await shiftMix(mixId, 366);
    expect(await publicMixFound(mixId)).toBe(false);
    const own = await rest('GET', `/api/mix/${mixId}`, owner);
    expect(own.json()).toMatchObject({ ExpiringIn: 0, isExpired: true });
    const billing = await gql<{
      billing: { mixes: { mix: { id: string }; hosting: string; expiringIn: number; isExpired: boolean; canRenew: boolean }[] };
    }>(t.app, '{ billing { mixes { mix { id } hosting expiringIn isExpired canRenew } } }', {}, owner.token);
    expect(billing.data?.billing.mixes).toEqual([
      { mix: { id: mixId }, hosting: 'SINGLE', expiringIn: 0, isExpired: true, canRenew: true },
    ]);

    // Renewing: the checkout page says so; paying hosts it 12 months from now (it had expired).
    const session = await rest('POST', '/api/payment/create-single-purchase-session', owner, { mix_id: mixId });
    const page = await rest('GET', pathOf(session.json().redirect));
    expect(page.body).toContain('Renewal');
    const before = Date.now();
    await rest('POST', `${pathOf(session.json().redirect)}/pay`);
    const renewed = await mixOf(mixId);
    expect((renewed.expiresAt as Date).getTime()).toBeGreaterThanOrEqual(hostingEnds(new Date(before)).getTime());
    expect(await publicMixFound(mixId)).toBe(true);
    expect(await t.services.orm.em.fork().count(Entitlement, { mix: mixId, source: 'single' })).toBe(2);
  });

  test('renewing before the end adds 12 months to the current end', async () => {
    const owner = await signUpMember(t.app);
    const mixId = await draftWithTimedTracklist(owner);
    expect((await rest('POST', '/api/mix/publish-mix', owner, { mix_id: mixId, code: 'free-mix' })).statusCode).toBe(200);
    const { expiresAt } = await mixOf(mixId);
    await payInTestMode(owner, '/api/payment/create-single-purchase-session', { mix_id: mixId });
    expect((await mixOf(mixId)).expiresAt).toEqual(hostingEnds(expiresAt as Date));
  });
});

describe('hosting: test-mode subscriptions over time (the payments sweep)', () => {
  test('a period ends: renewed with a paid period; canceled: ends at its period end, mixes a grace period later, then gone', async () => {
    const member = await signUpMember(t.app);
    const mixId = await draftWithTimedTracklist(member);
    await payInTestMode(member, '/api/payment/create-subscription-session', { mix_id: mixId });
    expect(await mixOf(mixId)).toMatchObject({ status: 'published', expiresAt: null });
    const subscription = await t.services.orm.em.fork().findOneOrFail(Subscription, { user: member.id });
    const periodsOf = () => t.services.orm.em.fork().count(SubscriptionPayment, { subscription: subscription.id });
    expect(await periodsOf()).toBe(1);

    // The period ends: the sweep renews it for a month and records the paid period.
    await sql("update subscription set current_period_end = now() - interval '1 hour' where id = ?", [subscription.id]);
    await t.services.payments.sweep();
    const renewed = await t.services.orm.em.fork().findOneOrFail(Subscription, subscription.id);
    expect(renewed.status).toBe('active');
    expect((renewed.currentPeriodEnd as Date).getTime()).toBeGreaterThan(Date.now() + 25 * DAY_MS);
    expect(await periodsOf()).toBe(2);

    // Canceled on the billing page: still active until the period ends...
    const portal = await rest('POST', '/api/payment/configure-portal-session', member);
    await rest('POST', `${pathOf(portal.json().redirect)}/cancel`);
    await t.services.payments.sweep();
    expect(await mixOf(mixId)).toMatchObject({ expiresAt: null });
    // ...then it ends, and its mixes stay GRACE_DAYS more.
    const [{ end }] = await sql<{ end: string }>(
      "update subscription set current_period_end = now() - interval '1 minute' where id = ? returning current_period_end as end",
      [subscription.id],
    );
    await t.services.payments.sweep();
    const ended = await t.services.orm.em.fork().findOneOrFail(Subscription, subscription.id);
    expect(ended).toMatchObject({ status: 'canceled', endedAt: new Date(end) });
    expect(await periodsOf()).toBe(2);
    expect((await mixOf(mixId)).expiresAt).toEqual(new Date(new Date(end).getTime() + GRACE_DAYS * DAY_MS));
    expect(await publicMixFound(mixId)).toBe(true);
    await sql("update mix set expires_at = now() - interval '1 second' where id = ?", [mixId]);
    expect(await publicMixFound(mixId)).toBe(false);
  });
});

describe('creator rewards', () => {
  /** A settled-to-be paid period of `amountCents` for the member's subscription, in January 2026. */
  async function paidJanuary(member: Member, amountCents: number): Promise<string> {
    const [subscription] = await sql<{ id: string }>('select id from subscription where user_id = ?', [member.id]);
    const [row] = await sql<{ id: string }>(
      `insert into subscription_payment (id, subscription_id, provider_ref, amount_cents, currency, period_start, period_end, paid_at)
       values (gen_random_uuid(), ?, ?, ?, 'usd', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', '2026-01-01T00:00:00Z') returning id`,
      [subscription.id, `test_period_${member.id}_${amountCents}`, amountCents],
    );
    return row.id;
  }

  async function subscriber(): Promise<Member> {
    const member = await signUpMember(t.app);
    await payInTestMode(member, '/api/payment/create-subscription-session', {});
    return member;
  }

  async function listen(member: Member, mixId: string, startIso: string, seconds: number) {
    const em = t.services.orm.em.fork();
    const started = new Date(startIso);
    const ended = new Date(started.getTime() + seconds * 1000);
    em.create(Listen, { mix: mixId, user: member.id, startedAt: started, aliveAt: ended, endedAt: ended });
    await em.flush();
  }

  const ledgerOf = (paymentId: string) =>
    t.services.orm.em
      .fork()
      .find(RewardAllocation, { subscriptionPayment: paymentId }, { orderBy: { amountCents: 'desc', creatorKey: 'asc' } });
  const total = (lines: { amountCents: number }[]) => lines.reduce((sum, line) => sum + line.amountCents, 0);

  test('70% of each payment to the creators the subscriber listened to, by time; awkward amounts add up exactly; listening to nothing is unallocated', async () => {
    const dj = await signUpMember(t.app);
    const mixId = await draftWithTimedTracklist(dj);
    await rest('POST', '/api/mix/publish-mix', dj, { mix_id: mixId, code: 'free-mix' });
    await sql("update mix set published_at = '2025-12-01T00:00:00Z' where id = ?", [mixId]);

    const fan = await subscriber();
    // 150 s from the start: Ann 60 s, Bo 60 s, Cy 30 s; a 20 s listen counts for nothing; one in February is another period.
    await listen(fan, mixId, '2026-01-10T12:00:00Z', 150);
    await listen(fan, mixId, '2026-01-11T12:00:00Z', 20);
    await listen(fan, mixId, '2026-02-10T12:00:00Z', 300);
    const fanPayment = await paidJanuary(fan, 999);

    const tiny = await subscriber();
    // 300 s reaches the last track, shared by Eve and Fay: 2 cents over five tracks and six creators.
    await listen(tiny, mixId, '2026-01-05T08:00:00Z', 300);
    const tinyPayment = await paidJanuary(tiny, 3);

    const silent = await subscriber();
    const silentPayment = await paidJanuary(silent, 999);

    const settled = await t.services.payments.sweep();
    expect(settled.settled).toBeGreaterThanOrEqual(3);

    const fanLedger = await ledgerOf(fanPayment);
    expect(fanLedger.map((line) => [line.creatorName, line.amountCents, line.listenedSeconds])).toEqual([
      ['Ann', 280, 60],
      ['Bo', 279, 60],
      ['Cy', 140, 30],
    ]);
    expect(total(fanLedger)).toBe(paymentPolicy.creatorsShareCents(999));

    const tinyLedger = await ledgerOf(tinyPayment);
    expect(total(tinyLedger)).toBe(paymentPolicy.creatorsShareCents(3));
    expect(tinyLedger.every((line) => line.creatorKey !== null)).toBe(true);

    const silentLedger = await ledgerOf(silentPayment);
    expect(silentLedger.map((line) => [line.creatorKey, line.amountCents])).toEqual([[null, 699]]);

    // Settling again changes nothing.
    await t.services.payments.sweep();
    expect(await ledgerOf(fanPayment)).toHaveLength(3);

    // The ledger is an operator's to read (issue 26).
    await t.services.roles.grant(dj.email, 'operator');
    const report = await gql<{
      earningsPeriods: string[];
      earnings: {
        period: string;
        paidCents: number;
        creatorsCents: number;
        unallocatedCents: number;
        creatorCount: number;
        creators: { creatorName: string; amountCents: number; subscribers: number }[];
      };
    }>(
      t.app,
      '{ earningsPeriods earnings(period: "2026-01") { period paidCents creatorsCents unallocatedCents creatorCount creators { creatorName amountCents subscribers } } }',
      {},
      dj.token,
    );
    const earnings = report.data?.earnings;
    expect(report.data?.earningsPeriods).toContain('2026-01');
    expect(earnings).toMatchObject({ period: '2026-01', paidCents: 999 + 3 + 999, unallocatedCents: 699 });
    expect(earnings?.creatorsCents).toBe(699 + 2 + 699);
    expect((earnings?.creators ?? []).reduce((sum, creator) => sum + creator.amountCents, 0) + (earnings?.unallocatedCents ?? 0)).toBe(
      earnings?.creatorsCents,
    );
    expect(earnings?.creators[0]).toMatchObject({ creatorName: 'Ann', subscribers: expect.any(Number) });

    const one = await gql<{ earnings: { creators: { creatorName: string }[] } }>(
      t.app,
      '{ earnings(period: "2026-01", creator: "bo") { creators { creatorName } } }',
      {},
      dj.token,
    );
    expect(one.data?.earnings.creators).toEqual([{ creatorName: 'Bo' }]);

    const csv = await rest('GET', '/api/payment/earnings/2026-01.csv', dj);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const rows = csv.body
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(rows[0]).toEqual(['period', 'creator_key', 'creator_name', 'amount_cents', 'listened_seconds', 'subscribers']);
    expect(rows.slice(1).reduce((sum, row) => sum + Number(row[3]), 0)).toBe(earnings?.creatorsCents);
    expect(rows.at(-1)?.[3]).toBe('699');

    expect((await rest('GET', '/api/payment/earnings/2026-13.csv', dj)).statusCode).toBe(400);
    expect((await rest('GET', '/api/payment/earnings/2026-01.csv')).statusCode).toBe(401);
    expect((await gql(t.app, '{ earnings(period: "January") { period } }', {}, dj.token)).errors?.[0].extensions?.code).toBe(
      'BAD_USER_INPUT',
    );
  });
});

describe('the webhook without Stripe', () => {
  test('exists and answers 400 to anything', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/payment/webhook',
      payload: '{"id":"evt_1","type":"checkout.session.completed"}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/STRIPE_WEBHOOK_SECRET/);
    expect((await t.app.inject({ method: 'POST', url: '/api/payment/webhook' })).statusCode).toBe(400);
  });
});
