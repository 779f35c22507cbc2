import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type Member, signUpMember, type TestApp } from '../../../../test/support/app.js';
import { draftMix } from '../../../../test/support/mixes.js';
import { Entitlement } from '../../payments/payment.entity.js';
import { hostingEnds } from '../mix-lifecycle.js';
import { publishMix } from './publish-mix.js';
import { setTracklist } from './set-tracklist.js';

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

const statusOf = async (mixId: string) =>
  (await t.services.orm.em.fork().execute<{ status: string }[]>('select status from mix where id = ?', [mixId]))[0].status;
const entitlementsOf = (mixId: string) => t.services.orm.em.fork().count(Entitlement, { mix: mixId });

describe('publish-mix', () => {
  test('a BETA code (trimmed, any case) publishes the draft for twelve months and records the entitlement', async () => {
    const mixId = await draftWithTracklist();
    const mix = await publishMix(t.services.orm, { viewerId: owner.id, mixId, code: '  FREE-mix ', betaCodes });
    expect(mix.status).toBe('published');
    expect(mix.expiresAt).toEqual(hostingEnds(mix.publishedAt as Date));
    expect(await entitlementsOf(mixId)).toBe(1);
  });

  test('without a code or a payment it is a 402 and the mix stays a draft', async () => {
    const mixId = await draftWithTracklist();
    await expect(publishMix(t.services.orm, { viewerId: owner.id, mixId, betaCodes })).rejects.toMatchObject({ status: 402 });
    expect(await statusOf(mixId)).toBe('draft');
  });

  test('a wrong code is a 400 with the SPEC’s words and publishes nothing', async () => {
    const mixId = await draftWithTracklist();
    await expect(publishMix(t.services.orm, { viewerId: owner.id, mixId, code: 'free-mixx', betaCodes })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^Invalid code:/),
    });
    expect(await statusOf(mixId)).toBe('draft');
  });

  test('a mix needs its tracklist first', async () => {
    const mixId = await draftMix(t.services, owner);
    await expect(publishMix(t.services.orm, { viewerId: owner.id, mixId, code: 'free-mix', betaCodes })).rejects.toMatchObject({
      status: 400,
      message: 'Add 5 to 30 tracks before publishing',
    });
  });

  test('only the owner publishes; an unknown id is a 404', async () => {
    const mixId = await draftWithTracklist();
    await expect(publishMix(t.services.orm, { viewerId: stranger.id, mixId, code: 'free-mix', betaCodes })).rejects.toMatchObject({
      status: 403,
    });
    await expect(publishMix(t.services.orm, { viewerId: owner.id, mixId: 'x', code: 'free-mix', betaCodes })).rejects.toMatchObject({
      status: 404,
    });
    expect(await statusOf(mixId)).toBe('draft');
  });

  test('two publishes at once: one publishes, the other finds it published; one entitlement', async () => {
    const mixId = await draftWithTracklist();
    const results = await Promise.allSettled(
      [1, 2].map(() => publishMix(t.services.orm, { viewerId: owner.id, mixId, code: 'free-mix', betaCodes })),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { status: 409 } });
    expect(await entitlementsOf(mixId)).toBe(1);
  });

  test('an entitlement a payment created for the mix publishes it without a code', async () => {
    const mixId = await draftWithTracklist();
    const em = t.services.orm.em.fork();
    em.create(Entitlement, { user: owner.id, mix: mixId, source: 'single', validFrom: new Date(), validUntil: hostingEnds(new Date()) });
    await em.flush();
    expect((await publishMix(t.services.orm, { viewerId: owner.id, mixId, betaCodes })).status).toBe('published');
  });
});
