import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { REPORTS_PER_HOUR } from '../src/shared/rules.js';
import { FOLDERS } from '../src/storage/storage.js';
import { createTestApp, freshIp, gql, type Member, STRONG_PASSWORD, signUpMember, type TestApp } from './support/app.js';
import { draftMix, publishedMix } from './support/mixes.js';
import { socketUrl, type Watch, watch } from './support/sockets.js';
import { addToTracklist, catalogueTrack, verifyHolder } from './support/trust.js';
import { waitFor, waitForEvent } from './support/wait.js';

/** Issue 29: reports, moderators' actions, suspensions, strikes and the transparency report (docs/trust.md). */

let t: TestApp;
let operator: Member;
let moderator: Member;
let member: Member;

const REPORT = `mutation($input: ReportContentInput!) { reportContent(input: $input) { id status outcome targetName } }`;
const ACT = `mutation($input: ModerateTrustItemInput!) { moderateTrustItem(input: $input) { id status } }`;
const QUEUE = `{ moderationQueue(first: 25) { items { id kind subjectId openedAt trust { targetId earlierReports reason note } } } }`;
const codeOf = (result: { errors?: { extensions?: { code?: string } }[] }) => result.errors?.[0]?.extensions?.code;
const send = (method: 'GET' | 'POST' | 'PUT', url: string, who?: Member, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, payload, headers: who ? { 'x-auth-token': who.token } : {}, remoteAddress: freshIp() });
const report = (who: Member, targetKind: 'MIX' | 'MEMBER', targetId: string, reason = 'ABUSE', note: string | null = null) =>
  gql<{ reportContent: { id: string; status: string } }>(t.app, REPORT, { input: { targetKind, targetId, reason, note } }, who.token);

async function queueItemFor(subjectId: string) {
  const queue = await gql<{
    moderationQueue: { items: { id: string; kind: string; subjectId: string; trust: { earlierReports: number } | null }[] };
  }>(t.app, QUEUE, {}, moderator.token);
  expect(queue.errors).toBeUndefined();
  return queue.data?.moderationQueue.items.find((item) => item.subjectId === subjectId);
}

const opened: Watch[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((socket) => socket.stop()));
});

beforeAll(async () => {
  t = await createTestApp();
  operator = await signUpMember(t.app);
  moderator = await signUpMember(t.app);
  member = await signUpMember(t.app);
  await t.services.roles.grant(operator.email, 'operator');
  await t.services.roles.grant(moderator.email, 'moderator');
});
afterAll(() => t.close());

describe('who may moderate', () => {
  test('non-moderators get FORBIDDEN on every moderation operation, and 403 over REST', async () => {
    const id = randomUUID();
    const operations: [string, Record<string, unknown>][] = [
      [ACT, { input: { itemId: id, action: 'HIDE_MIX' } }],
      ['mutation($input: RestoreInput!) { restoreMix(input: $input) }', { input: { id } }],
      ['mutation($input: RestoreInput!) { restoreMember(input: $input) }', { input: { id } }],
      ['{ heldMixes { totalCount } }', {}],
      ['{ suspendedMembers { totalCount } }', {}],
      [
        'mutation($input: StrikePolicyInput!) { setStrikePolicy(input: $input) { strikeLimit } }',
        { input: { strikeLimit: 5, windowDays: 30 } },
      ],
    ];
    for (const [query, variables] of operations) expect(codeOf(await gql(t.app, query, variables, member.token)), query).toBe('FORBIDDEN');
    // Setting the numbers is the operators' alone.
    const [, policy] = operations.at(-1) ?? [];
    expect(codeOf(await gql(t.app, operations.at(-1)?.[0] ?? '', policy, moderator.token))).toBe('FORBIDDEN');
    const paths: ['GET' | 'POST' | 'PUT', string, Record<string, unknown>?][] = [
      ['POST', `/api/moderation/queue/${id}/action`, { action: 'hide_mix' }],
      ['GET', `/api/moderation/queue/${id}/details`],
      ['POST', `/api/moderation/mixes/${id}/restore`, {}],
      ['POST', `/api/moderation/members/${id}/restore`, {}],
      ['GET', '/api/moderation/held-mixes'],
      ['GET', '/api/moderation/suspended-members'],
      ['PUT', '/api/strike-policy', { strike_limit: 5, window_days: 30 }],
    ];
    for (const [method, url, payload] of paths) expect((await send(method, url, member, payload)).statusCode, url).toBe(403);
    expect((await send('PUT', '/api/strike-policy', moderator, { strike_limit: 5, window_days: 30 })).statusCode).toBe(403);
  });
});

describe('reports', () => {
  test('one open report per member and target; not of oneself; hostile input is a 400; the reporter sees the outcome', async () => {
    const dj = await signUpMember(t.app, { userType: 'dj' });
    const mixId = await publishedMix(t.app, t.services, dj, { title: 'Reported Session' });
    expect((await report(member, 'MIX', mixId, 'SPAM', 'Spam links in the title')).data?.reportContent.status).toBe('OPEN');
    const again = await report(member, 'MIX', mixId);
    expect(codeOf(again)).toBe('CONFLICT');
    expect(again.errors?.[0]?.message).toMatch(/already reported/);
    expect(codeOf(await report(dj, 'MIX', mixId))).toBe('BAD_USER_INPUT');
    expect(codeOf(await report(member, 'MEMBER', randomUUID()))).toBe('NOT_FOUND');
    for (const payload of [
      { target_kind: 'mix', target_id: mixId, reason: 'abuse', note: 'nul\u0000byte' },
      { target_kind: 'mix', target_id: mixId, reason: 'abuse', note: 'x'.repeat(100_000) },
      { target_kind: 'mix', target_id: mixId, reason: 'because' },
      { target_kind: 'planet', target_id: mixId, reason: 'abuse' },
    ]) {
      const answer = await send('POST', '/api/reports', moderator, payload);
      expect(answer.statusCode, answer.body).toBe(400);
    }
    // A second reporter joins the same queue item.
    const second = await signUpMember(t.app);
    expect((await send('POST', '/api/reports', second, { target_kind: 'mix', target_id: mixId, reason: 'copyright' })).statusCode).toBe(
      201,
    );
    const item = await queueItemFor(`mix:${mixId}`);
    expect(item?.kind).toBe('report');
    const hidden = await gql<{ moderateTrustItem: { status: string } }>(
      t.app,
      ACT,
      { input: { itemId: item?.id, action: 'HIDE_MIX', reason: 'Spam' } },
      moderator.token,
    );
    expect(hidden.data?.moderateTrustItem.status).toBe('APPROVED');
    const mine = await gql<{ myReports: { items: { status: string; outcome: string; targetName: string }[] } }>(
      t.app,
      '{ myReports { items { status outcome targetName } } }',
      {},
      member.token,
    );
    expect(mine.data?.myReports.items[0]).toEqual({ status: 'UPHELD', outcome: 'hide_mix', targetName: 'Reported Session' });
    expect((await send('GET', `/api/mix/public/${mixId}`)).statusCode).toBe(451);
    const told = await gql<{ notifications: { edges: { node: { kind: string } }[] } }>(
      t.app,
      '{ notifications(first: 5) { edges { node { kind } } } }',
      {},
      second.token,
    );
    expect(told.data?.notifications.edges.map((edge) => edge.node.kind)).toContain('REPORT_DECIDED');
    // A new report after the decision counts the earlier ones.
    expect((await send('POST', `/api/moderation/mixes/${mixId}/restore`, moderator, { reason: 'Fixed' })).json()).toEqual({
      restored: true,
    });
    expect((await send('GET', `/api/mix/public/${mixId}`)).statusCode).toBe(200);
    await report(member, 'MIX', mixId, 'OTHER');
    expect((await queueItemFor(`mix:${mixId}`))?.trust?.earlierReports).toBe(2);
  });

  test(`at most ${REPORTS_PER_HOUR} reports an hour`, async () => {
    const reporter = await signUpMember(t.app);
    const targets = await Promise.all(Array.from({ length: REPORTS_PER_HOUR + 1 }, () => signUpMember(t.app)));
    for (const target of targets.slice(0, REPORTS_PER_HOUR)) expect((await report(reporter, 'MEMBER', target.id)).errors).toBeUndefined();
    const over = await send('POST', '/api/reports', reporter, {
      target_kind: 'member',
      target_id: targets[REPORTS_PER_HOUR]?.id,
      reason: 'spam',
    });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('suspensions', () => {
  test('a suspended member’s sockets close, their token is refused, sign-in says until when; a restore brings them back', async () => {
    const bad = await signUpMember(t.app, { userType: 'dj' });
    const mixId = await publishedMix(t.app, t.services, bad, { title: 'Suspended Session' });
    const socket = watch(await socketUrl(t.app), 'subscription { followEvents { kind } }', {}, { authorization: `Bearer ${bad.token}` });
    opened.push(socket);
    await waitForEvent('the socket accepted', socket.connected);
    await report(member, 'MEMBER', bad.id, 'IMPERSONATION', 'Pretends to be someone else');
    const item = await queueItemFor(`member:${bad.id}`);
    const until = new Date(Date.now() + 7 * 24 * 3600 * 1000);
    const acted = await gql(
      t.app,
      ACT,
      { input: { itemId: item?.id, action: 'SUSPEND_MEMBER', reason: 'Impersonation', suspendedUntil: until.toISOString() } },
      moderator.token,
    );
    expect(acted.errors).toBeUndefined();
    expect(await waitForEvent('the socket to close', socket.closed)).toBe(4403);
    expect((await send('GET', '/api/user/logged-in-user', bad)).statusCode).toBe(401);
    const signIn = await send('POST', '/api/auth', undefined, { email: bad.email, password: STRONG_PASSWORD });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().message).toContain(`suspended until ${until.toISOString().slice(0, 10)}`);
    expect((await send('GET', `/api/user/by-user-name/${bad.userName}`)).statusCode).toBe(404);
    expect((await send('GET', `/api/mix/public/${mixId}`)).statusCode).toBe(404);
    const listed = await gql<{ suspendedMembers: { items: { id: string }[] } }>(
      t.app,
      '{ suspendedMembers { items { id } } }',
      {},
      moderator.token,
    );
    expect(listed.data?.suspendedMembers.items.map((entry) => entry.id)).toContain(bad.id);
    const restored = await gql(
      t.app,
      'mutation($input: RestoreInput!) { restoreMember(input: $input) }',
      { input: { id: bad.id } },
      moderator.token,
    );
    expect(restored.errors).toBeUndefined();
    expect((await send('POST', '/api/auth', undefined, { email: bad.email, password: STRONG_PASSWORD })).statusCode).toBe(200);
    expect((await send('GET', `/api/mix/public/${mixId}`)).statusCode).toBe(200);
  });
});

describe('a suspended member’s mixes (docs/trust.md#hidden-means-hidden)', () => {
  const sql = <T extends object>(query: string, values: unknown[] = []) => t.services.orm.em.fork().execute<T[]>(query, values);
  /** Where anyone finds the mix: in the feed, on its page, and its audio served. */
  async function seen(mixId: string) {
    const feed = await gql<{ feed: { edges: { node: { id: string } }[] } }>(
      t.app,
      '{ feed(genre: ALL, radiusKm: 20000, first: 50) { edges { node { id } } } }',
      {},
      member.token,
    );
    expect(feed.errors).toBeUndefined();
    const [{ mp3 }] = await sql<{ mp3: string }>('select mp3 from mix where id = ?', [mixId]);
    return {
      feed: feed.data?.feed.edges.some((edge) => edge.node.id === mixId) ?? false,
      page: (await send('GET', `/api/mix/public/${mixId}`)).statusCode,
      audio: await t.services.media.fileAccess(FOLDERS.mixAudio, mp3, async () => null),
    };
  }
  const SHOWN = { feed: true, page: 200, audio: 'public' };
  const HIDDEN = { feed: false, page: 404, audio: null };
  async function suspend(who: Member, until: Date | null) {
    await report(member, 'MEMBER', who.id, 'SPAM');
    const item = await queueItemFor(`member:${who.id}`);
    const acted = await gql(
      t.app,
      ACT,
      { input: { itemId: item?.id, action: 'SUSPEND_MEMBER', reason: 'Spam', suspendedUntil: until?.toISOString() ?? null } },
      moderator.token,
    );
    expect(acted.errors).toBeUndefined();
  }

  test('suspending hides them from the feed, their pages and /media; lifting the suspension shows them again', async () => {
    const dj = await signUpMember(t.app, { userType: 'dj' });
    const mixId = await publishedMix(t.app, t.services, dj);
    expect(await seen(mixId)).toEqual(SHOWN);
    await suspend(dj, null);
    // The media cache hears of the suspension from the member's row.
    expect(await waitFor('the mix hidden', () => seen(mixId), { until: (now) => now.audio === null })).toEqual(HIDDEN);
    const lifted = await gql(
      t.app,
      'mutation($input: RestoreInput!) { restoreMember(input: $input) }',
      { input: { id: dj.id } },
      moderator.token,
    );
    expect(lifted.errors).toBeUndefined();
    expect(await waitFor('the mix shown', () => seen(mixId), { until: (now) => now.audio === 'public' })).toEqual(SHOWN);
  });

  test('a suspension that ends by time shows them again with no write', async () => {
    const dj = await signUpMember(t.app, { userType: 'dj' });
    const mixId = await publishedMix(t.app, t.services, dj);
    expect(await seen(mixId)).toEqual(SHOWN);
    const until = new Date(Date.now() + 6_000);
    await suspend(dj, until);
    expect(await waitFor('the mix hidden', () => seen(mixId), { until: (now) => now.audio === null })).toEqual(HIDDEN);
    const [before] = await sql<{ xmin: string }>('select xmin::text from mix where id = ?', [mixId]);
    expect(await waitFor('the suspension to end', () => seen(mixId), { until: (now) => now.feed })).toEqual(SHOWN);
    expect(Date.now()).toBeGreaterThanOrEqual(until.getTime());
    // Nothing wrote the mix (or its owner) when the suspension ended.
    expect(await sql('select xmin::text from mix where id = ?', [mixId])).toEqual([before]);
  });

  test('a mix made by a suspended member, or handed to one, is hidden', async () => {
    const dj = await signUpMember(t.app, { userType: 'dj' });
    const other = await signUpMember(t.app, { userType: 'dj' });
    await suspend(dj, null);
    const made = await draftMix(t.services, dj);
    await sql(`update mix set status = 'published', published_at = now(), expires_at = now() + interval '1 year' where id = ?`, [made]);
    expect(await seen(made)).toEqual(HIDDEN);
    const handed = await publishedMix(t.app, t.services, other);
    expect(await seen(handed)).toEqual(SHOWN);
    await sql('update mix set owner_id = ? where id = ?', [dj.id, handed]);
    expect(await waitFor('the handed mix hidden', () => seen(handed), { until: (now) => now.audio === null })).toEqual(HIDDEN);
    // Writing the copy by hand does not unhide it: the mix's owner decides.
    await sql('update mix set owner_suspended_until = null where id = ?', [handed]);
    expect(await seen(handed)).toEqual(HIDDEN);
  });
});

describe('repeat infringers', () => {
  test('the third upheld strike blocks uploads, saying until when; operators set the numbers', async () => {
    const holder = await signUpMember(t.app);
    const infringer = await signUpMember(t.app, { userType: 'dj' });
    const trackId = await catalogueTrack(t, 'strikes', 'Rin Aoki', 'Glass River');
    await verifyHolder(t, holder, moderator, trackId, 'Rin Aoki');
    for (let strike = 1; strike <= 3; strike += 1) {
      expect(await t.services.trust.uploadBlockOf(infringer.id)).toBeNull();
      const mixId = await publishedMix(t.app, t.services, infringer, { title: `Strike ${strike}` });
      await addToTracklist(t, mixId, trackId);
      const filed = await send('POST', '/api/copyright-notices', holder, {
        mix_id: mixId,
        track_id: trackId,
        text: `Glass River, strike ${strike}`,
      });
      expect(filed.statusCode, filed.body).toBe(201);
      const item = await queueItemFor(filed.json().id);
      const upheld = await send('POST', `/api/moderation/queue/${item?.id}/action`, moderator, {
        action: 'remove_and_strike',
        reason: 'No licence',
      });
      expect(upheld.statusCode, upheld.body).toBe(200);
    }
    const block = (await send('GET', '/api/upload-block', infringer)).json().block;
    expect(block.strikes).toBe(3);
    await expect(draftMix(t.services, infringer)).rejects.toThrow(/Uploads are blocked until \d{4}-\d{2}-\d{2}/);
    const policy = await gql<{ setStrikePolicy: { strikeLimit: number } }>(
      t.app,
      'mutation($input: StrikePolicyInput!) { setStrikePolicy(input: $input) { strikeLimit windowDays } }',
      { input: { strikeLimit: 4, windowDays: 365, reason: 'Gentler' } },
      operator.token,
    );
    expect(policy.data?.setStrikePolicy.strikeLimit).toBe(4);
    expect(await draftMix(t.services, infringer)).toMatch(/[0-9a-f-]{36}/);
    expect((await send('GET', '/api/strike-policy')).json()).toEqual({ strike_limit: 4, window_days: 365 });
  });
});

describe('transparency', () => {
  test('per month counts, no names, for anyone', async () => {
    const months = (await send('GET', '/api/transparency?months=2')).json();
    expect(months).toHaveLength(2);
    const [current] = months;
    expect(Object.keys(current).sort()).toEqual([
      'counter_notices',
      'month',
      'notices',
      'reports_received',
      'restorations',
      'suspensions',
      'takedowns',
    ]);
    expect(current.reports_received).toBeGreaterThan(0);
    expect(current.suspensions).toBeGreaterThan(0);
    expect(current.takedowns).toBeGreaterThan(0);
    expect(current.restorations).toBeGreaterThan(0);
    expect((await send('GET', '/api/transparency?months=0')).statusCode).toBe(400);
    const graphql = await gql<{ transparencyReport: { month: string; notices: number }[] }>(
      t.app,
      '{ transparencyReport(months: 1) { month notices } }',
    );
    expect(graphql.data?.transparencyReport[0]?.month).toBe(current.month);
  });
});
