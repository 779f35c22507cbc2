import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FOLDERS } from '../src/storage/storage.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { publishedMix } from './support/mixes.js';
import { startSmtpReceiver } from './support/smtp.js';
import { addToTracklist, bareWebRoot, catalogueTrack, verifyHolder } from './support/trust.js';
import { waitFor } from './support/wait.js';

/** Issue 29: copyright notices and "hidden means hidden everywhere" (docs/trust.md). */

const PUBLIC_URL = 'http://mixcrate.test';
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let webRoot: string;
let moderator: Member;
let holder: Member;
let dj: Member;
let stranger: Member;
let trackId: string;
let noticed: string;
let other: string;

const FILE = `mutation($input: FileCopyrightNoticeInput!) { fileCopyrightNotice(input: $input) { id status claimedName isFiler history { action by } } }`;
const COUNTER = `mutation($input: CounterNoticeInput!) { counterNotice(input: $input) { id status counterText } }`;
const ACT = `mutation($input: ModerateTrustItemInput!) { moderateTrustItem(input: $input) { id status } }`;
const QUEUE = `{ moderationQueue(first: 25) { items { id kind subjectId trust { targetId mixState tracklist recognisedTracks notice { id status } } } } }`;

const rest = (url: string, member?: Member) =>
  t.app.inject({ method: 'GET', url, headers: member ? { 'x-auth-token': member.token } : {} });
const codeOf = (result: { errors?: { extensions?: { code?: string } }[] }) => result.errors?.[0]?.extensions?.code;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  webRoot = await bareWebRoot();
  t = await createTestApp({ PUBLIC_URL, SMTP_URL: smtp.url }, undefined, webRoot);
  moderator = await signUpMember(t.app);
  await t.services.roles.grant(moderator.email, 'moderator');
  holder = await signUpMember(t.app);
  dj = await signUpMember(t.app, { userType: 'dj' });
  stranger = await signUpMember(t.app);
  trackId = await catalogueTrack(t, 'notices', 'Aiko Mori', 'Paper Lanterns');
  await verifyHolder(t, holder, moderator, trackId, 'Aiko Mori');
  noticed = await publishedMix(t.app, t.services, dj, { title: 'Lantern Walk Session' });
  other = await publishedMix(t.app, t.services, dj, { title: 'Quiet Harbour Session' });
  await addToTracklist(t, noticed, trackId);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await rm(dirname(webRoot), { recursive: true, force: true });
});

/** Every surface a non-owner sees the mix on, as a map of surface → whether the mix is there. */
async function surfaces(mixId: string, title: string) {
  await t.services.search.indexer.run();
  const feed = await gql<{ feed: { edges: { node: { id: string } }[] } }>(t.app, '{ feed(first: 50) { edges { node { id } } } }');
  const byUser = await gql<{ mixesByUser: { edges: { node: { id: string } }[] } }>(
    t.app,
    'query($u: String!) { mixesByUser(userName: $u) { edges { node { id } } } }',
    { u: dj.userName },
    stranger.token,
  );
  const track = await gql<{ track: { mixes: { edges: { node: { id: string } }[] } } }>(
    t.app,
    'query($id: ID!) { track(id: $id) { mixes { edges { node { id } } } } }',
    { id: trackId },
  );
  const search = await rest(`/api/search?q=${encodeURIComponent(title)}&type=mix`);
  const [row] = await t.services.orm.em.fork().execute<{ mp3: string }[]>('select mp3 from mix where id = ?', [mixId]);
  return {
    feed: feed.data?.feed.edges.some((edge) => edge.node.id === mixId),
    profile: byUser.data?.mixesByUser.edges.some((edge) => edge.node.id === mixId),
    track: track.data?.track.mixes.edges.some((edge) => edge.node.id === mixId),
    search: search.body.includes(mixId),
    publicApi: (await rest(`/api/mix/public/${mixId}`)).statusCode,
    graphql: codeOf(await gql(t.app, 'query($id: ID!) { mix(id: $id) { id } }', { id: mixId }, stranger.token)) ?? 'shown',
    oembed: (await rest(`/api/oembed?url=${encodeURIComponent(`${PUBLIC_URL}/shared-mix/${mixId}`)}`)).statusCode,
    embed: (await rest(`/embed/mix/${mixId}`)).statusCode,
    media: await t.services.media.fileAccess(FOLDERS.mixAudio, row.mp3, async () => stranger.id),
    shareLink: (await rest(`/shared-mix/${mixId}`)).statusCode,
    mixPage: (await rest(`/mix/${mixId}`)).statusCode,
  };
}

const SHOWN = {
  feed: true,
  profile: true,
  track: true,
  search: true,
  publicApi: 200,
  graphql: 'shown',
  oembed: 200,
  embed: 200,
  media: 'public',
  shareLink: 200,
  mixPage: 200,
};
const HIDDEN = {
  feed: false,
  profile: false,
  track: false,
  search: false,
  publicApi: 451,
  graphql: 'UNAVAILABLE_FOR_LEGAL_REASONS',
  oembed: 404,
  embed: 451,
  media: null,
  shareLink: 451,
  mixPage: 451,
};

describe('copyright notices', () => {
  test('only a verified creator of a track in the mix files a notice: others are FORBIDDEN, and nothing is hidden', async () => {
    const byStranger = await gql(t.app, FILE, { input: { mixId: noticed, trackId, text: 'Mine!' } }, stranger.token);
    expect(codeOf(byStranger)).toBe('FORBIDDEN');
    const notInMix = await gql(t.app, FILE, { input: { mixId: other, trackId, text: 'Mine too' } }, holder.token);
    expect(codeOf(notInMix)).toBe('FORBIDDEN');
    expect(notInMix.errors?.[0]?.message).toMatch(/not in the mix/);
    const byOwner = await gql(t.app, FILE, { input: { mixId: noticed, trackId, text: 'Mine' } }, dj.token);
    expect(codeOf(byOwner)).toBe('FORBIDDEN');
    const anonymous = await gql(t.app, FILE, { input: { mixId: noticed, trackId, text: 'Mine' } });
    expect(codeOf(anonymous)).toBe('UNAUTHENTICATED');
    const overRest = await t.app.inject({
      method: 'POST',
      url: '/api/copyright-notices',
      headers: { 'x-auth-token': stranger.token },
      payload: { mix_id: noticed, track_id: trackId, text: 'Mine' },
    });
    expect(overRest.statusCode).toBe(403);
    expect(await surfaces(noticed, 'Lantern Walk Session')).toEqual(SHOWN);
    // Not in the track's list: it never played the track.
    expect(await surfaces(other, 'Quiet Harbour Session')).toEqual({ ...SHOWN, track: false });
  });

  test('hostile notice text is a 400', async () => {
    const headers = { 'x-auth-token': holder.token };
    for (const text of ['nul\u0000byte', 'x'.repeat(100_000), '   ']) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/copyright-notices',
        headers,
        payload: { mix_id: noticed, track_id: trackId, text },
      });
      expect(answer.statusCode, answer.body).toBe(400);
    }
  });

  test('a notice hides the mix everywhere but for its owner, who is told with its text; a restore brings it all back', async () => {
    const filed = await gql<{
      fileCopyrightNotice: { id: string; status: string; claimedName: string; history: { action: string; by: string }[] };
    }>(t.app, FILE, { input: { mixId: noticed, trackId, text: 'Paper Lanterns plays from 12:00 without a licence.' } }, holder.token);
    expect(filed.errors).toBeUndefined();
    const notice = filed.data?.fileCopyrightNotice;
    expect(notice).toMatchObject({ status: 'OPEN', claimedName: 'Aiko Mori' });
    expect(notice?.history.map((event) => [event.action, event.by])).toEqual([['notice.filed', 'FILER']]);
    expect(await surfaces(noticed, 'Lantern Walk Session')).toEqual(HIDDEN);
    // The owner still has it, marked.
    const own = await gql<{ mix: { id: string; moderationState: string } }>(
      t.app,
      'query($id: ID!) { mix(id: $id) { id moderationState } }',
      { id: noticed },
      dj.token,
    );
    expect(own.data?.mix).toEqual({ id: noticed, moderationState: 'HIDDEN' });
    const mail = await waitFor('the notice mail', () =>
      smtp.inbox.find((entry) => entry.to.includes(dj.email) && entry.raw.includes('copyright')),
    );
    expect((mail?.raw ?? '').replace(/=\r?\n/g, '')).toContain('without a licence');
    const told = await gql<{ notifications: { edges: { node: { kind: string } }[] } }>(
      t.app,
      '{ notifications(first: 10) { edges { node { kind } } } }',
      {},
      dj.token,
    );
    expect(told.data?.notifications.edges.map((edge) => edge.node.kind)).toContain('MIX_NOTICE');

    // Only the owner answers; the filer and the owner both read the history.
    const noticeId = notice?.id ?? '';
    expect(codeOf(await gql(t.app, COUNTER, { input: { noticeId, text: 'I hold a licence' } }, stranger.token))).toBe('FORBIDDEN');
    expect(codeOf(await gql(t.app, 'query($id: ID!) { copyrightNotice(id: $id) { id } }', { id: noticeId }, stranger.token))).toBe(
      'FORBIDDEN',
    );
    const countered = await gql<{ counterNotice: { status: string } }>(
      t.app,
      COUNTER,
      { input: { noticeId, text: 'I hold a licence' } },
      dj.token,
    );
    expect(countered.data?.counterNotice.status).toBe('COUNTERED');
    for (const party of [holder, dj]) {
      const read = await gql<{ copyrightNotice: { history: { action: string }[]; counterText: string } }>(
        t.app,
        'query($id: ID!) { copyrightNotice(id: $id) { counterText history { action } } }',
        { id: noticeId },
        party.token,
      );
      expect(read.data?.copyrightNotice.counterText).toBe('I hold a licence');
      expect(read.data?.copyrightNotice.history.map((event) => event.action)).toContain('notice.countered');
    }

    // The moderator sees it in the queue with the tracklist, and restores it.
    const queue = await gql<{
      moderationQueue: { items: { id: string; kind: string; subjectId: string; trust: { tracklist: string[]; mixState: string } }[] };
    }>(t.app, QUEUE, {}, moderator.token);
    expect(queue.errors).toBeUndefined();
    const item = queue.data?.moderationQueue.items.find((entry) => entry.subjectId === noticeId);
    expect(item?.kind).toBe('copyright_notice');
    expect(item?.trust.mixState).toBe('HIDDEN');
    expect(item?.trust.tracklist).toContain('Aiko Mori – Paper Lanterns');
    const wrongAction = await gql(t.app, ACT, { input: { itemId: item?.id, action: 'HIDE_MIX' } }, moderator.token);
    expect(codeOf(wrongAction)).toBe('BAD_USER_INPUT');
    const restored = await gql(t.app, ACT, { input: { itemId: item?.id, action: 'RESTORE', reason: 'Licence shown' } }, moderator.token);
    expect(restored.errors).toBeUndefined();
    await waitFor('the mix back everywhere', () => surfaces(noticed, 'Lantern Walk Session'), {
      until: (seen) => JSON.stringify(seen) === JSON.stringify(SHOWN),
    });
    const history = await gql<{ copyrightNotice: { status: string; history: { action: string }[] } }>(
      t.app,
      'query($id: ID!) { copyrightNotice(id: $id) { status history { action } } }',
      { id: noticeId },
      holder.token,
    );
    expect(history.data?.copyrightNotice.status).toBe('RESTORED');
    expect(history.data?.copyrightNotice.history.map((event) => event.action)).toEqual(
      expect.arrayContaining(['notice.filed', 'notice.countered', 'notice.restored', 'copyright_notice.restore']),
    );
  });
});
