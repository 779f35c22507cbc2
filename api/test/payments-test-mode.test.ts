import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Entitlement } from '../src/modules/payments/payment.entity.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { draftMix, typedTracks } from './support/mixes.js';

let t: TestApp;
let dj: Member;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://mixcrate.test' });
  dj = await signUpMember(t.app);
});
afterAll(() => t.close());

const rest = (method: 'GET' | 'POST', url: string, member?: Member, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, payload, headers: member ? { 'x-auth-token': member.token } : {} });

async function draftReadyToPay(owner = dj): Promise<string> {
  const id = await draftMix(t.services, owner);
  const tracks = await rest('POST', '/api/mix/update-mix', owner, { mix_id: id, tracks: typedTracks(5) });
  expect(tracks.statusCode, tracks.body).toBe(200);
  return id;
}

const statusOf = async (mixId: string) =>
  (
    await t.services.orm.em
      .fork()
      .execute<{ status: string; expires_at: Date | null }[]>('select status, expires_at from mix where id = ?', [mixId])
  )[0];

const pathOf = (url: string) => new URL(url).pathname;

describe('test-mode checkout (no STRIPE_SECRET_KEY)', () => {
  test('a single purchase: the checkout page, Pay (test mode), the success page, a published mix', async () => {
    const mixId = await draftReadyToPay();
    const session = await rest('POST', '/api/payment/create-single-purchase-session', dj, { mix_id: mixId });
    expect(session.statusCode, session.body).toBe(200);
    const { redirect } = session.json();
    expect(redirect).toMatch(/^http:\/\/mixcrate\.test\/test-mode\/checkout\/cs_test_mixcrate_[0-9a-f]{32}$/);

    const page = await rest('GET', pathOf(redirect));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Test mode');
    expect(page.body).toContain('$4.00');
    expect(page.body).toContain('Pay (test mode)');
    expect(page.body).toContain('>Cancel<');
    expect((await statusOf(mixId)).status).toBe('draft');

    const paid = await t.app.inject({
      method: 'POST',
      url: `${pathOf(redirect)}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(paid.statusCode).toBe(303);
    const sessionId = pathOf(redirect).split('/').pop();
    expect(paid.headers.location).toBe(`http://mixcrate.test/upload/payment/success-purchase?session_id=${sessionId}&mix_id=${mixId}`);
    expect((await statusOf(mixId)).status).toBe('published');

    // The success page's return is a harmless repeat.
    const again = await rest('POST', '/api/mix/publish-mix', dj, { mix_id: mixId, session_id: sessionId });
    expect(again.statusCode, again.body).toBe(200);
    const confirmed = await rest('POST', '/api/payment/confirm-session', dj, { session_id: sessionId });
    expect(confirmed.json()).toEqual({ status: 'paid', kind: 'single', mix_id: mixId, published: true });
    expect(await t.services.orm.em.fork().count(Entitlement, { mix: mixId })).toBe(1);
  });

  test('Cancel goes to the canceled page and publishes nothing; the session cannot be paid afterwards', async () => {
    const mixId = await draftReadyToPay();
    const { redirect } = (await rest('POST', '/api/payment/create-single-purchase-session', dj, { mix_id: mixId })).json();
    const canceled = await rest('POST', `${pathOf(redirect)}/cancel`);
    expect(canceled.statusCode).toBe(303);
    expect(canceled.headers.location).toBe(`http://mixcrate.test/upload/payment/canceled-purchase?mix_id=${mixId}`);
    const paidLater = await rest('POST', `${pathOf(redirect)}/pay`);
    expect(paidLater.headers.location).toMatch(/canceled-purchase/);
    expect((await statusOf(mixId)).status).toBe('draft');
    expect((await rest('POST', '/api/mix/publish-mix', dj, { mix_id: mixId })).statusCode).toBe(402);
  });

  test('the subscription: checkout, then the billing page shows it and cancels it', async () => {
    const member = await signUpMember(t.app);
    const mixId = await draftReadyToPay(member);
    expect((await rest('POST', '/api/payment/configure-portal-session', member)).statusCode).toBe(400);
    const { redirect } = (await rest('POST', '/api/payment/create-subscription-session', member, { mix_id: mixId })).json();
    const page = await rest('GET', pathOf(redirect));
    expect(page.body).toContain('$9.99');
    const paid = await rest('POST', `${pathOf(redirect)}/pay`);
    expect(paid.statusCode, paid.body).toBe(303);
    expect(paid.headers.location).toMatch(
      /^http:\/\/mixcrate\.test\/upload\/payment\/success-subscription\?session_id=cs_test_mixcrate_\w+&mix_id=/,
    );
    expect(await statusOf(mixId)).toEqual({ status: 'published', expires_at: null });
    // A second draft publishes on the subscription alone.
    const second = await draftReadyToPay(member);
    expect((await rest('POST', '/api/mix/publish-mix', member, { mix_id: second })).statusCode).toBe(200);
    expect((await rest('POST', '/api/payment/create-subscription-session', member, {})).statusCode).toBe(409);
    // A mix the active subscription hosts with no end needs no renewal.
    const renew = await rest('POST', '/api/payment/create-single-purchase-session', member, { mix_id: mixId });
    expect(renew.statusCode).toBe(409);
    expect(renew.json().message).toMatch(/needs no renewal/);

    const portal = await rest('POST', '/api/payment/configure-portal-session', member);
    expect(portal.statusCode, portal.body).toBe(200);
    const billingPage = await rest('GET', pathOf(portal.json().redirect));
    expect(billingPage.body).toContain('Billing (test mode)');
    expect(billingPage.body).toContain('Cancel subscription');
    const cancel = await rest('POST', `${pathOf(portal.json().redirect)}/cancel`);
    expect(cancel.statusCode).toBe(303);
    const billing = await gql<{ billing: { subscribed: boolean; subscription: { cancelAtPeriodEnd: boolean; active: boolean } } }>(
      t.app,
      '{ billing { subscribed subscription { cancelAtPeriodEnd active } } }',
      {},
      member.token,
    );
    expect(billing.data?.billing).toEqual({ subscribed: true, subscription: { cancelAtPeriodEnd: true, active: true } });
  });

  test('unknown sessions and pages are 404s; sessions need a member and their own mix', async () => {
    expect((await rest('GET', '/test-mode/checkout/cs_test_mixcrate_nope')).statusCode).toBe(404);
    expect((await rest('POST', '/test-mode/checkout/nope/pay')).statusCode).toBe(404);
    expect((await rest('POST', '/test-mode/checkout/n%00/pay')).statusCode).toBe(400);
    expect((await rest('GET', '/test-mode/billing/abc')).statusCode).toBe(404);
    expect((await rest('POST', '/api/payment/create-single-purchase-session', undefined, { mix_id: 'x' })).statusCode).toBe(401);
    const stranger = await signUpMember(t.app);
    const mixId = await draftReadyToPay();
    expect((await rest('POST', '/api/payment/create-single-purchase-session', stranger, { mix_id: mixId })).statusCode).toBe(403);
    expect((await rest('POST', '/api/payment/create-single-purchase-session', dj, { mix_id: 'nope' })).statusCode).toBe(404);
  });
});
