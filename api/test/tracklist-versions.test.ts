import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { settleRewards } from '../src/modules/payments/commands/settle-rewards.js';
import { paymentPolicy } from '../src/modules/payments/payment.policy.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { draftMix } from './support/mixes.js';

/**
 * Issue 28, "tracklists that cannot move money after the fact" (docs/payments.md#tracklist-versions): a published
 * mix's tracklist edits add versions, a listen is paid to the tracks of the version it was heard with, settled periods
 * never change, and only the owner sees the versions.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'http://mixcrate.test' });
});
afterAll(() => t.close());

const rest = (method: 'GET' | 'POST', url: string, member?: Member, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, payload, headers: member ? { 'x-auth-token': member.token } : {} });
const sql = <T>(query: string, params: unknown[] = []) => t.services.orm.em.fork().execute<T[]>(query, params);

/** Five timed tracks of 60 s, one artist each. */
const timedTracks = (artists: string[]) =>
  artists.map((artist, index) => ({
    name: `${artist} song`,
    creators: artist,
    is_manual: true,
    start_time: index * 60,
    end_time: index * 60 + 60,
  }));
const FIRST = ['Ann', 'Bo', 'Cy', 'Dee', 'Eve'];
const SECOND = ['Vic', 'Wes', 'Xan', 'Yul', 'Zed'];
const THIRD = ['Pia', 'Quin', 'Ray', 'Sol', 'Tam'];

async function setTracklist(owner: Member, mixId: string, artists: string[]) {
  const response = await rest('POST', '/api/mix/update-mix', owner, { mix_id: mixId, tracks: timedTracks(artists) });
  expect(response.statusCode, response.body).toBe(200);
}

/** A mix published a day ago with the FIRST artists' tracks. */
async function publishedMix(owner: Member): Promise<string> {
  const id = await draftMix(t.services, owner);
  await setTracklist(owner, id, FIRST);
  const published = await rest('POST', '/api/mix/publish-mix', owner, { mix_id: id, code: 'free-mix' });
  expect(published.statusCode, published.body).toBe(200);
  await sql(`update mix set published_at = published_at - interval '1 day' where id = ?`, [id]);
  return id;
}

/** A subscriber (test mode) with one paid period around now that settlement can settle at its end. */
async function subscriber(): Promise<{ member: Member; paymentId: string; periodEnd: Date }> {
  const member = await signUpMember(t.app);
  const session = await rest('POST', '/api/payment/create-subscription-session', member, {});
  expect(session.statusCode, session.body).toBe(200);
  expect((await rest('POST', `${new URL(session.json().redirect).pathname}/pay`)).statusCode).toBe(303);
  const [subscription] = await sql<{ id: string }>('select id from subscription where user_id = ?', [member.id]);
  const periodEnd = new Date(Date.now() + 60 * 60 * 1000);
  const [payment] = await sql<{ id: string }>(
    `insert into subscription_payment (id, subscription_id, provider_ref, amount_cents, currency, period_start, period_end, paid_at)
     values (gen_random_uuid(), ?, ?, 999, 'usd', now() - interval '1 day', ?, now()) returning id`,
    [subscription.id, `versions_${member.id}`, periodEnd],
  );
  return { member, paymentId: payment.id, periodEnd };
}

/** A real listen through the player's calls, of `seconds`: started a minute more than that ago. */
async function listen(member: Member, mixId: string, seconds: number) {
  const start = Date.now() - (seconds + 60) * 1000;
  const started = await rest('POST', `/api/mix/add-new-listen/${mixId}`, member, { start: new Date(start).toISOString() });
  expect(started.statusCode, started.body).toBe(200);
  const end = new Date(start + seconds * 1000).toISOString();
  const ended = await rest('POST', `/api/mix/pause/${mixId}`, member, { end });
  expect(ended.statusCode, ended.body).toBe(200);
}

const ledgerOf = (paymentId: string) =>
  sql<{ creator_name: string | null; amount_cents: number; listened_seconds: number }>(
    `select creator_name, amount_cents, listened_seconds from reward_allocation where subscription_payment_id = ?
      order by amount_cents desc, creator_name`,
    [paymentId],
  );

const VERSIONS = `query ($id: ID!, $first: Int) { mix(id: $id) { tracklistVersions(first: $first) {
  number createdAt entries { position startTime track { title creators { name } } } } } }`;
interface VersionsAnswer {
  mix: { tracklistVersions: { number: number; createdAt: string; entries: { track: { creators: { name: string }[] } }[] }[] | null };
}
const artistsOf = (entries: { track: { creators: { name: string }[] } }[]) => entries.map((entry) => entry.track.creators[0].name);

describe('a listen is paid to the tracklist it was heard with', () => {
  test('the owner points the tracklist at other tracks after a listen: settlement pays the tracks heard, not the new ones', async () => {
    const dj = await signUpMember(t.app);
    const mixId = await publishedMix(dj);
    const fan = await subscriber();
    // 150 s from the start: Ann 60 s, Bo 60 s, Cy 30 s under the tracklist in force.
    await listen(fan.member, mixId, 150);
    await setTracklist(dj, mixId, SECOND);

    expect(await settleRewards(t.services.orm, fan.periodEnd, true)).toBeGreaterThanOrEqual(1);
    const ledger = await ledgerOf(fan.paymentId);
    expect(ledger.map((line) => [line.creator_name, line.amount_cents, line.listened_seconds])).toEqual([
      ['Ann', 280, 60],
      ['Bo', 279, 60],
      ['Cy', 140, 30],
    ]);
    expect(ledger.reduce((sum, line) => sum + line.amount_cents, 0)).toBe(paymentPolicy.creatorsShareCents(999));
  });

  test('a listen that starts after the edit is paid to the new tracks', async () => {
    const dj = await signUpMember(t.app);
    const mixId = await publishedMix(dj);
    await setTracklist(dj, mixId, SECOND);
    const fan = await subscriber();
    await listen(fan.member, mixId, 90);
    await settleRewards(t.services.orm, fan.periodEnd, true);
    expect((await ledgerOf(fan.paymentId)).map((line) => line.creator_name)).toEqual(['Vic', 'Wes']);
  });

  test('a mix published before versions existed gets its version 1 from its tracklist as it was when first listened to or edited', async () => {
    const dj = await signUpMember(t.app);
    const mixId = await publishedMix(dj);
    // As the migration found such mixes: published, no version yet.
    await sql('delete from tracklist_version where mix_id = ?', [mixId]);
    const fan = await subscriber();
    await listen(fan.member, mixId, 70);
    await setTracklist(dj, mixId, SECOND);
    await settleRewards(t.services.orm, fan.periodEnd, true);
    expect((await ledgerOf(fan.paymentId)).map((line) => line.creator_name)).toEqual(['Ann', 'Bo']);
    const [first] = await sql<{ number: number; created_at: Date; published_at: Date }>(
      'select v.number, v.created_at, m.published_at from tracklist_version v join mix m on m.id = v.mix_id where v.mix_id = ? order by number limit 1',
      [mixId],
    );
    expect(first.number).toBe(1);
    expect(new Date(first.created_at).getTime()).toBe(new Date(first.published_at).getTime());
  });
});

describe('settled periods never change', () => {
  test('edits after settlement, and settlement run again, leave the settled ledger as it was; the database refuses to change it', async () => {
    const dj = await signUpMember(t.app);
    const mixId = await publishedMix(dj);
    const fan = await subscriber();
    await listen(fan.member, mixId, 150);
    await settleRewards(t.services.orm, fan.periodEnd, true);
    const settled = await ledgerOf(fan.paymentId);
    expect(settled.map((line) => line.creator_name)).toEqual(['Ann', 'Bo', 'Cy']);

    await setTracklist(dj, mixId, SECOND);
    await setTracklist(dj, mixId, THIRD);
    expect(await settleRewards(t.services.orm, fan.periodEnd, true)).toBe(0);
    expect(await ledgerOf(fan.paymentId)).toEqual(settled);

    await expect(
      sql(`update reward_allocation set creator_key = 'name:vic', creator_name = 'Vic' where subscription_payment_id = ?`, [fan.paymentId]),
    ).rejects.toThrow(/settled ledger line does not change/);
    await expect(sql('update reward_allocation set amount_cents = 0 where subscription_payment_id = ?', [fan.paymentId])).rejects.toThrow(
      /settled ledger line does not change/,
    );
    await expect(sql('update subscription_payment set rewards_settled_at = null where id = ?', [fan.paymentId])).rejects.toThrow(
      /settled payment stays settled/,
    );
    expect(await ledgerOf(fan.paymentId)).toEqual(settled);
  });
});

describe('the owner sees the versions', () => {
  test('versions newest first with their entries; a draft is edited in place; versions survive later edits', async () => {
    const dj = await signUpMember(t.app);
    const id = await draftMix(t.services, dj);
    await setTracklist(dj, id, THIRD);
    await setTracklist(dj, id, FIRST);
    const draft = await gql<VersionsAnswer>(t.app, VERSIONS, { id }, dj.token);
    expect(draft.errors).toBeUndefined();
    expect(draft.data?.mix.tracklistVersions).toEqual([]);

    expect((await rest('POST', '/api/mix/publish-mix', dj, { mix_id: id, code: 'free-mix' })).statusCode).toBe(200);
    await setTracklist(dj, id, SECOND);
    const before = await gql<VersionsAnswer>(t.app, VERSIONS, { id }, dj.token);
    await setTracklist(dj, id, THIRD);
    const answer = await gql<VersionsAnswer>(t.app, VERSIONS, { id }, dj.token);
    expect(answer.errors).toBeUndefined();
    const versions = answer.data?.mix.tracklistVersions ?? [];
    expect(versions.map((version) => version.number)).toEqual([3, 2, 1]);
    expect(versions.map((version) => artistsOf(version.entries))).toEqual([THIRD, SECOND, FIRST]);
    expect(new Date(versions[0].createdAt).getTime()).toBeGreaterThanOrEqual(new Date(versions[1].createdAt).getTime());
    // The versions answered before the last edit are unchanged by it.
    expect(versions.slice(1)).toEqual(before.data?.mix.tracklistVersions);
    // The mix's tracklist is the newest version.
    const current = await gql<{ mix: { tracks: { track: { creators: { name: string }[] } }[] } }>(
      t.app,
      'query ($id: ID!) { mix(id: $id) { tracks { track { creators { name } } } } }',
      { id },
    );
    expect(artistsOf(current.data?.mix.tracks ?? [])).toEqual(THIRD);

    const limited = await gql<VersionsAnswer>(t.app, VERSIONS, { id, first: 1 }, dj.token);
    expect(limited.data?.mix.tracklistVersions?.map((version) => version.number)).toEqual([3]);
    const tooMany = await gql(t.app, VERSIONS, { id, first: 51 }, dj.token);
    expect(tooMany.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');

    const restAnswer = await rest('GET', `/api/mix/tracklist-versions/${id}`, dj);
    expect(restAnswer.statusCode).toBe(200);
    const wire = restAnswer.json().versions as { version: number; created_at: string; tracks: { creators: { name: string }[] }[] }[];
    expect(wire.map((version) => version.version)).toEqual([3, 2, 1]);
    expect(wire[2].tracks.map((track) => track.creators[0].name)).toEqual(FIRST);
    expect((await rest('GET', `/api/mix/tracklist-versions/${id}?first=2`, dj)).json().versions).toHaveLength(2);
    expect((await rest('GET', `/api/mix/tracklist-versions/${id}?first=0`, dj)).statusCode).toBe(400);
    expect((await rest('GET', `/api/mix/tracklist-versions/${id}?first=lots`, dj)).statusCode).toBe(400);
  });

  test('anyone else: null in GraphQL, 403 over REST; signed out 401; a mix they cannot open 404', async () => {
    const dj = await signUpMember(t.app);
    const other = await signUpMember(t.app);
    const id = await publishedMix(dj);
    await setTracklist(dj, id, SECOND);

    const asOther = await gql<VersionsAnswer>(t.app, VERSIONS, { id }, other.token);
    expect(asOther.errors).toBeUndefined();
    expect(asOther.data?.mix.tracklistVersions).toBeNull();
    const signedOut = await gql<VersionsAnswer>(t.app, VERSIONS, { id });
    expect(signedOut.data?.mix.tracklistVersions).toBeNull();

    const forbidden = await rest('GET', `/api/mix/tracklist-versions/${id}`, other);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.body).not.toContain('Ann');
    expect((await rest('GET', `/api/mix/tracklist-versions/${id}`)).statusCode).toBe(401);

    const draft = await draftMix(t.services, dj);
    expect((await rest('GET', `/api/mix/tracklist-versions/${draft}`, other)).statusCode).toBe(404);
    expect((await rest('GET', '/api/mix/tracklist-versions/not-a-mix', other)).statusCode).toBe(404);
    expect((await rest('GET', `/api/mix/tracklist-versions/${draft}`, dj)).json()).toEqual({ versions: [] });
  });
});
