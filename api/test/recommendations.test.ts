import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { CITIES, draftMix, publishedDaysAgo, publishedMix } from './support/mixes.js';
import { statementsOf } from './support/statements.js';

/** The "For you" row (docs/home-feed.md#for-you). Each test makes its own members; popular mixes are compared among themselves. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const MIX_SECONDS = 600;

async function mixBy(owner: Member, title: string): Promise<string> {
  const id = await publishedMix(t.app, t.services, owner, { title });
  await t.services.orm.em.fork().execute('update mix set duration_seconds = ? where id = ?', [MIX_SECONDS, id]);
  return id;
}

const save = async (member: Member, mixId: string) => {
  const response = await t.app.inject({ method: 'POST', url: `/api/user/save-mix/${mixId}`, headers: { 'x-auth-token': member.token } });
  expect(response.statusCode, response.body).toBe(200);
};

/** A listen stored as the player leaves it: `share` of the mix played, ended an hour ago; anonymous without a member. */
async function listen(member: Member | null, mixId: string, share: number, count = 1): Promise<void> {
  await t.services.orm.em.fork().execute(
    `insert into listen (id, mix_id, user_id, started_at, ended_at, alive_at)
     select gen_random_uuid(), ?, ?, now() - interval '2 hours', now() - interval '2 hours' + make_interval(secs => ?), now()
       from generate_series(1, ?)`,
    [mixId, member?.id ?? null, share * MIX_SECONDS, count],
  );
}

interface Item {
  mix: { id: string; title: string };
  reason: string;
  reasonText: string;
  relatedMix: { id: string; title: string } | null;
}

const FOR_YOU = `query ($first: Int) { forYou(first: $first) { reason reasonText relatedMix { id title } mix { id title savedByMe owner { userName } } } }`;

async function forYou(member: Member | null, first = 50): Promise<Item[]> {
  const result = await gql<{ forYou: Item[] }>(t.app, FOR_YOU, { first }, member?.token);
  expect(result.errors).toBeUndefined();
  return result.data?.forYou ?? [];
}

const ids = (items: Item[]) => items.map((item) => item.mix.id);

describe('for you', () => {
  test('new mixes of followed members come first, as "New from …"; an old one does not count as new', async () => {
    const dj = await signUpMember(t.app, { ...CITIES.paris, userType: 'dj' });
    const fan = await signUpMember(t.app, CITIES.paris);
    const old = await mixBy(dj, 'Old one');
    await publishedDaysAgo(t.services, old, 40);
    const fresh = await mixBy(dj, 'Fresh one');
    const popular = await mixBy(await signUpMember(t.app, CITIES.paris), 'Popular elsewhere');
    await listen(null, popular, 1, 50);
    const follow = await t.app.inject({ method: 'POST', url: `/api/user/follow/${dj.id}`, headers: { 'x-auth-token': fan.token } });
    expect(follow.statusCode, follow.body).toBe(200);

    const items = await forYou(fan);
    expect(items[0]).toMatchObject({ mix: { id: fresh }, reason: 'NEW_FROM_FOLLOWED', reasonText: `New from ${dj.userName}` });
    expect(items.find((item) => item.mix.id === old)?.reason).not.toBe('NEW_FROM_FOLLOWED');
    expect(ids(items)).toContain(popular);
  });

  test('mixes saved by members who saved what I saved: "Because you saved …", never ones I saved or finished', async () => {
    const dj = await signUpMember(t.app, { ...CITIES.london, userType: 'dj' });
    const [seed, liked, alsoLiked, finishedByMe] = [
      await mixBy(dj, 'Seed set'),
      await mixBy(dj, 'Liked by neighbours'),
      await mixBy(dj, 'Also liked'),
      await mixBy(dj, 'Already finished'),
    ];
    const me = await signUpMember(t.app, CITIES.london);
    await save(me, seed);
    await listen(me, finishedByMe, 0.95);
    for (let index = 0; index < 3; index++) {
      const neighbour = await signUpMember(t.app);
      await save(neighbour, seed);
      await save(neighbour, liked);
      await save(neighbour, finishedByMe);
      if (index === 0) await listen(neighbour, alsoLiked, 1);
    }

    const items = await forYou(me);
    const first = items[0];
    expect(first).toMatchObject({
      mix: { id: liked },
      reason: 'SAVED',
      reasonText: 'Because you saved Seed set',
      relatedMix: { id: seed },
    });
    expect(items[1]).toMatchObject({ mix: { id: alsoLiked }, reason: 'SAVED' });
    expect(ids(items)).not.toContain(seed);
    expect(ids(items)).not.toContain(finishedByMe);
  });

  test('a finished mix seeds too ("Because you finished …"), and a listen that stopped half-way neither seeds nor excludes', async () => {
    const dj = await signUpMember(t.app, { ...CITIES.berlin, userType: 'dj' });
    const [finished, halfway, next] = [await mixBy(dj, 'Played through'), await mixBy(dj, 'Half heard'), await mixBy(dj, 'Next up')];
    const me = await signUpMember(t.app, CITIES.berlin);
    await listen(me, finished, 1);
    await listen(me, halfway, 0.5);
    const neighbour = await signUpMember(t.app);
    await listen(neighbour, finished, 0.92);
    await save(neighbour, next);

    const items = await forYou(me);
    expect(items[0]).toMatchObject({ mix: { id: next }, reason: 'FINISHED', reasonText: 'Because you finished Played through' });
    expect(ids(items)).not.toContain(finished);
    // Half heard is still recommendable: here as popular near the member, since its one listen is this week's.
    expect(items.find((item) => item.mix.id === halfway)?.reason).toBe('POPULAR_NEAR_YOU');
  });

  test('hidden mixes never appear: deactivated, expired, drafts, and a followed member’s deactivated new mix', async () => {
    const dj = await signUpMember(t.app, { ...CITIES.sydney, userType: 'dj' });
    const [seed, deactivated, expired, kept] = [
      await mixBy(dj, 'Seed'),
      await mixBy(dj, 'Gone'),
      await mixBy(dj, 'Expired'),
      await mixBy(dj, 'Kept'),
    ];
    const draft = await draftMix(t.services, dj, { title: 'Draft' });
    const me = await signUpMember(t.app, CITIES.sydney);
    await save(me, seed);
    await t.app.inject({ method: 'POST', url: `/api/user/follow/${dj.id}`, headers: { 'x-auth-token': me.token } });
    const neighbour = await signUpMember(t.app);
    for (const id of [seed, deactivated, expired, kept]) await save(neighbour, id);
    await listen(null, deactivated, 1, 500);
    await listen(null, draft, 1, 500);
    await t.services.mixes.deactivate(dj.id, deactivated);
    await t.services.orm.em.fork().execute(`update mix set expires_at = now() - interval '1 minute' where id = ?`, [expired]);

    const items = await forYou(me);
    expect(ids(items)).toContain(kept);
    for (const hidden of [deactivated, expired, draft]) expect(ids(items)).not.toContain(hidden);
    const visitor = await forYou(null);
    for (const hidden of [deactivated, expired, draft]) expect(ids(visitor)).not.toContain(hidden);
  });

  test('a new member gets "Popular near you": the week’s listens weighted by distance; a visitor gets "Popular this week"', async () => {
    const near = await mixBy(await signUpMember(t.app, { ...CITIES.berlin, userType: 'dj' }), 'Near');
    const middle = await mixBy(await signUpMember(t.app, { ...CITIES.london, userType: 'dj' }), 'Middle');
    const far = await mixBy(await signUpMember(t.app, { ...CITIES.sydney, userType: 'dj' }), 'Far');
    const lastMonth = await mixBy(await signUpMember(t.app, { ...CITIES.berlin, userType: 'dj' }), 'Last month');
    await listen(null, near, 1, 2);
    await listen(null, middle, 1, 5);
    await listen(null, far, 1, 30);
    await t.services.orm.em.fork().execute(
      `insert into listen (id, mix_id, user_id, started_at, ended_at, alive_at)
         select gen_random_uuid(), ?, null, now() - interval '8 days', now() - interval '8 days', now() from generate_series(1, 100)`,
      [lastMonth],
    );
    const newcomer = await signUpMember(t.app, CITIES.berlin);

    const items = await forYou(newcomer);
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items.map((item) => item.reasonText))).toEqual(new Set(['Popular near you']));
    const order = ids(items).filter((id) => [near, middle, far].includes(id));
    // By listens alone the order would be far, middle, near: 2 listens next door outweigh 30 on the far side of the earth.
    expect(order).toEqual([near, middle, far]);
    expect(ids(items)).not.toContain(lastMonth);

    const visitorOrder = ids(await forYou(null)).filter((id) => [near, middle, far].includes(id));
    expect(visitorOrder).toEqual([far, middle, near]);
    expect((await forYou(null))[0].reasonText).toBe('Popular this week');
  });

  test('one statement per row, a bounded size, and REST beside GraphQL', async () => {
    const member = await signUpMember(t.app, CITIES.paris);
    const statements = await statementsOf(() => t.services.recommendations.forYou(member.id, { first: 50 }));
    expect(statements).toHaveLength(1);

    const rest = await t.app.inject({ method: 'GET', url: '/api/mix/for-you?limit=3', headers: { 'x-auth-token': member.token } });
    expect(rest.statusCode, rest.body).toBe(200);
    const body = rest.json() as { data: { mix: { _id: string; title: string }; reason: string; reason_text: string }[] };
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.length).toBeLessThanOrEqual(3);
    expect(body.data[0]).toMatchObject({ reason: 'popular_near_you', reason_text: 'Popular near you' });
    expect(body.data[0].mix._id).toEqual(expect.any(String));

    for (const limit of ['0', '51', 'many']) {
      const refused = await t.app.inject({ method: 'GET', url: `/api/mix/for-you?limit=${limit}` });
      expect(refused.statusCode, limit).toBe(400);
    }
    const tooMany = await gql(t.app, FOR_YOU, { first: 51 });
    expect(tooMany.errors?.[0].message).toMatch(/first must be a whole number from 1 to 50/);
  });
});
