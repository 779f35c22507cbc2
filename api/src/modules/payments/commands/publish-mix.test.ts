import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type Member, signUpMember, type TestApp } from '../../../../test/support/app.js';
import { draftMix } from '../../../../test/support/mixes.js';
import { setTracklist } from '../../mixes/commands/set-tracklist.js';
import { hostingEnds } from '../../mixes/mix-lifecycle.js';
import { Entitlement, Payment } from '../payment.entity.js';
import { type PublishMix, publishMix } from './publish-mix.js';

let t: TestApp;
let owner: Member;
let stranger: Member;
const betaCodes = ['free-mix'];

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpMember(t.app);
  stranger = await signUpMember(t.app);
});
afterAll(() => t.close());

const fiveTracks = Array.from({ length: 5 }, (_, index) => ({ title: `Track ${index + 1}`, creators: [`Artist ${index + 1}`] }));

async function draftWithTracklist(): Promise<string> {
  const mixId = await draftMix(t.services, owner);
  await setTracklist(t.services.orm, { viewerId: owner.id, mixId, entries: fiveTracks });
  return mixId;
}

const publish = (command: Partial<PublishMix> & { mixId: string | null }) =>
  t.services.orm.em
    .fork()
    .transactional((em) =>
      publishMix(em as EntityManager, { viewerId: owner.id, code: null, betaCodes, testModeCounts: true, ...command }),
    );

const statusOf = async (mixId: string) =>
  (await t.services.orm.em.fork().execute<{ status: string }[]>('select status from mix where id = ?', [mixId]))[0].status;
const entitlementsOf = (mixId: string) => t.services.orm.em.fork().count(Entitlement, { mix: mixId });

describe('publish-mix', () => {
  test('a BETA code publishes the draft for twelve months and records the entitlement', async () => {
    const mixId = await draftWithTracklist();
    const mix = await publish({ mixId, code: 'free-mix' });
    expect(mix.status).toBe('published');
    expect(mix.expiresAt).toEqual(hostingEnds(mix.publishedAt as Date));
    expect(await entitlementsOf(mixId)).toBe(1);
  });

  test('without evidence it is a 402 and the mix stays a draft', async () => {
    const mixId = await draftWithTracklist();
    await expect(publish({ mixId })).rejects.toMatchObject({ status: 402 });
    expect(await statusOf(mixId)).toBe('draft');
    expect(await entitlementsOf(mixId)).toBe(0);
  });

  test('a wrong code is a 400 with the documented words and publishes nothing', async () => {
    const mixId = await draftWithTracklist();
    await expect(publish({ mixId, code: 'free-mixx' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^Invalid code:/),
    });
    expect(await statusOf(mixId)).toBe('draft');
  });

  test('a mix needs its tracklist first', async () => {
    const mixId = await draftMix(t.services, owner);
    await expect(publish({ mixId, code: 'free-mix' })).rejects.toMatchObject({
      status: 400,
      message: 'Add 5 to 30 tracks before publishing',
    });
  });

  test('only the owner publishes; an unknown id is a 404', async () => {
    const mixId = await draftWithTracklist();
    await expect(publish({ viewerId: stranger.id, mixId, code: 'free-mix' })).rejects.toMatchObject({ status: 403 });
    await expect(publish({ mixId: null, code: 'free-mix' })).rejects.toMatchObject({ status: 404 });
    expect(await statusOf(mixId)).toBe('draft');
  });

  test('two publishes at once: both answer the published mix; one entitlement', async () => {
    const mixId = await draftWithTracklist();
    const results = await Promise.all([1, 2].map(() => publish({ mixId, code: 'free-mix' })));
    expect(results.map((mix) => mix.status)).toEqual(['published', 'published']);
    expect(await entitlementsOf(mixId)).toBe(1);
  });

  test('a paid single purchase for the mix publishes it without a code, and is used once', async () => {
    const mixId = await draftWithTracklist();
    const em = t.services.orm.em.fork();
    const payment = em.create(Payment, {
      user: owner.id,
      mix: mixId,
      kind: 'single',
      provider: 'test',
      providerRef: `cs_test_unit_${mixId}`,
      status: 'paid',
      amountCents: 400,
    });
    em.create(Entitlement, { user: owner.id, mix: mixId, payment, source: 'single', validFrom: new Date(), validUntil: null });
    await em.flush();
    const mix = await publish({ mixId });
    expect(mix.status).toBe('published');
    const [entitlement] = await t.services.orm.em.fork().find(Entitlement, { mix: mixId });
    expect(entitlement.validUntil).toEqual(mix.expiresAt);
  });

  test('a purchase not paid yet is no evidence', async () => {
    const mixId = await draftWithTracklist();
    const em = t.services.orm.em.fork();
    const payment = em.create(Payment, {
      user: owner.id,
      mix: mixId,
      kind: 'single',
      provider: 'test',
      providerRef: `cs_test_unpaid_${mixId}`,
      amountCents: 400,
    });
    em.create(Entitlement, { user: owner.id, mix: mixId, payment, source: 'single', validFrom: new Date(), validUntil: null });
    await em.flush();
    await expect(publish({ mixId })).rejects.toMatchObject({ status: 402 });
  });

  test('a paid test-mode purchase is no evidence once the test mode is not the provider; a Stripe one is', async () => {
    const purchased = async (provider: 'test' | 'stripe') => {
      const mixId = await draftWithTracklist();
      const em = t.services.orm.em.fork();
      const payment = em.create(Payment, {
        user: owner.id,
        mix: mixId,
        kind: 'single',
        provider,
        providerRef: `cs_${provider}_counted_${mixId}`,
        status: 'paid',
        amountCents: 400,
      });
      em.create(Entitlement, { user: owner.id, mix: mixId, payment, source: 'single', validFrom: new Date(), validUntil: null });
      await em.flush();
      return mixId;
    };
    const fake = await purchased('test');
    await expect(publish({ mixId: fake, testModeCounts: false })).rejects.toMatchObject({ status: 402 });
    expect(await statusOf(fake)).toBe('draft');
    const real = await purchased('stripe');
    expect((await publish({ mixId: real, testModeCounts: false })).status).toBe('published');
  });
});
