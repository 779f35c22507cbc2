import { Failure, timed } from './figures.js';
import { expectStatus, graphql, send } from './http.js';
import { GENRES, pick, RANGE_BYTES, random, SUBSCRIPTIONS } from './settings.js';
import { closeSubscription, lastListenChange, openSubscription, subscriptions } from './subscriptions.js';
import { createMix, type Member, type Mix, members, mixes, PLACES, publish, storedBytes, tusUpload } from './world.js';

/** The operations, and how often each comes (weights: shares of BENCH_SOAK_RATE). */

const FEED_GENRES = ['all', 'all', ...GENRES, 'edm'];
const RADII = [50, 500, 2000, 20_000, 20_000];

const FEED_QUERY = `query Feed($genre: Genre!, $radiusKm: Float!, $from: LocationInput, $first: Int!, $after: String) {
  feed(genre: $genre, radiusKm: $radiusKm, from: $from, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node {
      id title genre coverUrl audioUrl createdAt publishedAt isNewUpload expiringIn isExpired distanceKm isOwner savedByMe
      location { latitude longitude }
      owner { id userName displayName imageUrl }
      tracks(first: 4) { position track { id title creators { name } label { name } coverUrl } }
    } }
  }
}`;
const MIX_QUERY = `query MixPage($id: ID!) {
  mix(id: $id) {
    id title genre coverUrl audioUrl publishedAt distanceKm isOwner savedByMe durationSeconds
    owner { id userName displayName imageUrl isFollowing }
    waveform { state peaks }
    tracks(first: 30) { position track { id title creators { name } } }
  }
}`;

interface Listen {
  member: Member;
  mix: Mix;
  startedAt: number;
  pauseAfterMs: number;
  busy: boolean;
}
const listens = new Map<string, Listen>();
const feedCursors = new Map<string, string>();
/** Uploads sent so far, and the cover and small MP3 they send (made before the load starts). */
export const uploading: { count: number; cover: Buffer; mp3: Buffer } = { count: 0, cover: Buffer.alloc(0), mp3: Buffer.alloc(0) };

const someoneElse = (member: Member) => {
  const others = members.filter((other) => other !== member);
  return pick(others);
};

async function listenStart(): Promise<void> {
  const member = pick(members);
  const mix = pick(mixes);
  const key = `${member.index}:${mix.id}`;
  if (listens.has(key)) return heartbeat(false);
  const listen: Listen = { member, mix, startedAt: 0, pauseAfterMs: 20_000 + random() * 100_000, busy: true };
  listens.set(key, listen);
  await timed('play (REST)', async () =>
    expectStatus(await send('POST', `/api/mix/play/${mix.id}`, { address: member.address, token: member.token }), 200),
  );
  lastListenChange.set(mix.id, performance.now());
  const started = await timed('add-new-listen (REST)', async () =>
    expectStatus(await send('POST', `/api/mix/add-new-listen/${mix.id}`, { address: member.address, token: member.token, json: {} }), 200),
  );
  if (!started) {
    listens.delete(key);
    return;
  }
  listen.startedAt = performance.now();
  listen.busy = false;
}

async function heartbeat(orStart = true): Promise<void> {
  const open = [...listens.values()].filter((listen) => !listen.busy);
  if (open.length === 0) return orStart ? listenStart() : undefined;
  const listen = pick(open);
  const position = Math.floor((performance.now() - listen.startedAt) / 100) / 10;
  await timed('heartbeat: saveCurrentMix (GraphQL)', () =>
    graphql(
      'mutation ($mixId: ID, $position: Float!) { saveCurrentMix(mixId: $mixId, position: $position) { id } }',
      { mixId: listen.mix.id, position },
      listen.member,
    ),
  );
}

async function listenPause(): Promise<void> {
  const now = performance.now();
  const due = [...listens.values()].filter((listen) => !listen.busy && now - listen.startedAt >= listen.pauseAfterMs);
  if (due.length === 0) return heartbeat(false);
  const listen = pick(due);
  listen.busy = true;
  lastListenChange.set(listen.mix.id, performance.now());
  await timed('pause-listen (REST)', async () =>
    expectStatus(
      await send('POST', `/api/mix/pause-listen/${listen.mix.id}`, {
        address: listen.member.address,
        token: listen.member.token,
        json: {},
      }),
      200,
    ),
  );
  listens.delete(`${listen.member.index}:${listen.mix.id}`);
}

const saved = new Set<string>();
async function saveToggle(): Promise<void> {
  const member = pick(members);
  const mix = pick(mixes);
  const key = `${member.index}:${mix.id}`;
  const saving = !saved.has(key);
  if (saving) saved.add(key);
  else saved.delete(key);
  await timed(saving ? 'save-mix (REST)' : 'remove-saved-mix (REST)', async () =>
    expectStatus(
      await send('POST', `/api/user/${saving ? 'save-mix' : 'remove-saved-mix'}/${mix.id}`, {
        address: member.address,
        token: member.token,
      }),
      200,
    ),
  );
}

async function followToggle(): Promise<void> {
  const member = pick(members);
  const other = someoneElse(member);
  if (random() < 0.5) {
    await timed('follow toggle (REST GET)', async () =>
      expectStatus(await send('GET', `/api/user/follow/${other.id}`, { address: member.address, token: member.token }), 200),
    );
  } else {
    await timed('follow toggle (GraphQL)', () => graphql('mutation ($id: ID!) { toggleFollow(userId: $id) }', { id: other.id }, member));
  }
}

async function feedRest(): Promise<void> {
  const member = random() < 0.6 ? pick(members) : undefined;
  const body: Record<string, unknown> = { genre: pick(FEED_GENRES), search_radius: pick(RADII), page: random() < 0.2 ? 1 : 0, limit: 10 };
  if (!member || random() < 0.3) body.from_point = pick(PLACES);
  await timed('feed page (REST)', async () =>
    expectStatus(
      await send('POST', '/api/mix/get-mixes-by-genre-and-distance', { address: member?.address, token: member?.token, json: body }),
      200,
    ),
  );
}

async function feedGraphql(): Promise<void> {
  const member = random() < 0.6 ? pick(members) : undefined;
  const genre = pick(FEED_GENRES).toUpperCase();
  const radiusKm = pick(RADII);
  const from = !member || random() < 0.3 ? pick(PLACES) : null;
  const key = `${genre}:${radiusKm}:${from ? `${from.latitude}` : '-'}`;
  const after = random() < 0.25 ? (feedCursors.get(key) ?? null) : null;
  const data = await timed(after ? 'feed next page (GraphQL)' : 'feed page (GraphQL)', () =>
    graphql<{ feed: { pageInfo: { hasNextPage: boolean; endCursor: string | null } } }>(
      FEED_QUERY,
      { genre, radiusKm, from, first: 10, after },
      member,
    ),
  );
  if (data && !after) {
    if (data.feed.pageInfo.hasNextPage && data.feed.pageInfo.endCursor) feedCursors.set(key, data.feed.pageInfo.endCursor);
    else feedCursors.delete(key);
  }
}

async function mixPage(): Promise<void> {
  const member = random() < 0.6 ? pick(members) : undefined;
  const mix = pick(mixes);
  if (random() < 0.5) {
    await timed('mix page (GraphQL)', () => graphql(MIX_QUERY, { id: mix.id }, member));
  } else {
    await timed('mix page (REST public)', async () => expectStatus(await send('GET', `/api/mix/public/${mix.id}`), 200));
  }
}

async function mediaRange(): Promise<void> {
  const mix = pick(mixes);
  const start = Math.floor(random() * Math.max(1, mix.bytes - RANGE_BYTES));
  const end = Math.min(mix.bytes, start + RANGE_BYTES) - 1;
  await timed('media Range 64 KB (/media)', async () => {
    const answer = expectStatus(await send('GET', mix.mp3, { headers: { range: `bytes=${start}-${end}` } }), 206);
    if (answer.body.length !== end - start + 1) throw new Failure('short body', `${answer.body.length} bytes for ${start}-${end}`);
  });
}

async function mediaCover(): Promise<void> {
  const mix = pick(mixes);
  await timed('media cover (/media)', async () => expectStatus(await send('GET', mix.cover), 200));
}

async function mixStats(): Promise<void> {
  const mix = pick(mixes);
  await timed('mix stats (REST)', async () => expectStatus(await send('GET', `/api/mix/stats/${mix.id}`), 200));
}

async function profile(): Promise<void> {
  const member = pick(members);
  const viewer = pick(members);
  await timed('profile + mixes by member (REST)', async () => {
    const options = { address: viewer.address, token: viewer.token };
    expectStatus(await send('GET', `/api/user/by-user-name/${member.userName}`, options), 200);
    expectStatus(await send('GET', `/api/mix/by-user/${member.userName}/0`, options), 200);
  });
}

async function loggedIn(): Promise<void> {
  const member = pick(members);
  await timed('logged-in-user (REST)', async () =>
    expectStatus(await send('GET', '/api/user/logged-in-user', { address: member.address, token: member.token }), 200),
  );
}

async function savedList(): Promise<void> {
  const member = pick(members);
  await timed('saved mixes (REST)', async () =>
    expectStatus(await send('GET', '/api/user/saved-mixes-by-me', { address: member.address, token: member.token }), 200),
  );
}

async function subscriptionChurn(): Promise<void> {
  const old = subscriptions.length >= SUBSCRIPTIONS ? pick(subscriptions) : undefined;
  if (old) await closeSubscription(old);
  await openSubscription('subscription: connect + subscribe (graphql-ws)');
}

async function upload(): Promise<void> {
  uploading.count += 1;
  const { cover, mp3: smallMp3 } = uploading;
  const member = pick(members);
  const genre = pick(GENRES);
  const title = `Soak upload ${uploading.count}`;
  const viaTus = uploading.count % 2 === 0;
  const draft = viaTus
    ? await timed('upload: tus POST + PATCH + create-mix (80 KB)', async () =>
        createMix(member, cover, title, genre, await tusUpload(member, smallMp3)),
      )
    : await timed('upload: create-mix multipart (80 KB)', () => createMix(member, cover, title, genre, smallMp3));
  if (!draft || uploading.count % 4 >= 2) return;
  await publish(member, draft._id, (name) => `upload: ${name}`);
  const bytes = await storedBytes(draft.mp3).catch(() => 0);
  if (bytes > 0) mixes.push({ id: draft._id, mp3: draft.mp3, cover: draft.cover, bytes });
}

const ALL_OPERATIONS: [number, string, () => Promise<void>][] = [
  [5, 'feed-rest', feedRest],
  [5, 'feed-graphql', feedGraphql],
  [2.5, 'mix-page', mixPage],
  [1.2, 'listen-start', listenStart], // two requests: play, add-new-listen
  [3, 'heartbeat', heartbeat],
  [1.2, 'listen-pause', listenPause],
  [2, 'save', saveToggle],
  [2, 'follow', followToggle],
  [11, 'range', mediaRange],
  [1, 'cover', mediaCover],
  [1, 'stats', mixStats],
  [0.7, 'profile', profile], // two requests
  [1, 'logged-in', loggedIn],
  [0.5, 'saved-list', savedList],
  [0.3, 'subscriptions', subscriptionChurn],
  [0.1, 'upload', upload],
];
/** BENCH_SOAK_WITHOUT=follow,upload leaves operations out (say, one known to wedge the server until it is fixed). */
export const WITHOUT = (process.env.BENCH_SOAK_WITHOUT ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const OPERATIONS = ALL_OPERATIONS.filter(([, name]) => !WITHOUT.includes(name));
const TOTAL_WEIGHT = OPERATIONS.reduce((sum, [weight]) => sum + weight, 0);
export function chooseOperation(): () => Promise<void> {
  let at = random() * TOTAL_WEIGHT;
  for (const [weight, , operation] of OPERATIONS) {
    at -= weight;
    if (at < 0) return operation;
  }
  return OPERATIONS[0]?.[2] ?? feedRest;
}
