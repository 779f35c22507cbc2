import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { encodeCursor } from '../src/shared/cursor.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { CITIES, draftMix, publishedDaysAgo, typedTracks } from './support/mixes.js';

/**
 * Relay cursor connections both ways on every connection: walking forward to the end with `first`/`after`, then
 * backward from the end with `last`/`before`, gives the same items in the same order, with PageInfo true at each step.
 */

let t: TestApp;
let dj: Member;
let farDj: Member;
let listener: Member;
let trackId: string;
beforeAll(async () => {
  t = await createTestApp();
  dj = await signUpMember(t.app, CITIES.berlin);
  farDj = await signUpMember(t.app, CITIES.sydney);
  listener = await signUpMember(t.app, CITIES.berlin);
  await new CatalogueService(t.services.orm).write(
    Array.from({ length: 5 }, (_, index) => ({
      source: 'test',
      externalId: `paging-${index}`,
      title: `Paging Song ${index}`,
      creators: [{ id: null, name: 'Pager' }],
      label: { id: null, name: 'Cursor Records' },
      cover: 'https://covers.example.com/paging.jpg',
      releaseDate: null,
      buy: false,
      newRelease: false,
    })),
  );
  const [row] = await t.services.orm.em.fork().execute<{ id: string }[]>(`select id from track where external_id = 'paging-0'`);
  trackId = row.id;
  // Five Berlin mixes and two far away, all playing the track, a day apart but for two published at the same moment
  // (which the id breaks ties between); the listener saves them all.
  const mixIds: string[] = [];
  for (const [index, owner] of [dj, dj, dj, dj, dj, farDj, farDj].entries()) {
    const id = await draftMix(t.services, owner, { title: `Paged ${index}` });
    const headers = { 'x-auth-token': owner.token };
    const tracks = [{ uuid: trackId, name: 'x', creators: 'y' }, ...typedTracks(4)];
    expect((await t.app.inject({ method: 'POST', url: '/api/mix/update-mix', headers, payload: { mix_id: id, tracks } })).statusCode).toBe(
      200,
    );
    const published = await t.app.inject({
      method: 'POST',
      url: '/api/mix/publish-mix',
      headers,
      payload: { mix_id: id, code: 'free-mix' },
    });
    expect(published.statusCode, published.body).toBe(200);
    await publishedDaysAgo(t.services, id, index);
    mixIds.push(id);
    expect((await gql(t.app, 'mutation ($id: ID!) { saveMix(mixId: $id) { id } }', { id }, listener.token)).errors).toBeUndefined();
  }
  await t.services.orm.em
    .fork()
    .execute('update mix set published_at = (select published_at from mix where id = ?) where id = ?', [mixIds[2], mixIds[3]]);
  // The listener follows five members, and five follow the listener.
  for (let index = 0; index < 5; index++) {
    const other = await signUpMember(t.app);
    const follow = 'mutation ($id: ID!) { toggleFollow(userId: $id) }';
    expect((await gql(t.app, follow, { id: other.id }, listener.token)).data).toEqual({ toggleFollow: 'FOLLOWED' });
    expect((await gql(t.app, follow, { id: listener.id }, other.token)).data).toEqual({ toggleFollow: 'FOLLOWED' });
  }
}, 120_000);
afterAll(() => t.close());

const PAGE = 'edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';
const ARGS = 'first: $first, after: $after, last: $last, before: $before';
const VARIABLES = '$first: Int, $after: String, $last: Int, $before: String';

interface Connection {
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** Each connection: a query taking the four paging variables, where its answer sits, and who asks. */
const CONNECTIONS: Record<string, { query: string; at: (data: Record<string, unknown>) => Connection; token?: () => string }> = {
  feed: {
    query: `query (${VARIABLES}) { feed(${ARGS}) { ${PAGE} } }`,
    at: (data) => data.feed as Connection,
  },
  'feed within a radius (the walk)': {
    query: `query (${VARIABLES}) { feed(radiusKm: 500, from: { latitude: 52.52, longitude: 13.405 }, ${ARGS}) { ${PAGE} } }`,
    at: (data) => data.feed as Connection,
  },
  'feed of one genre within a radius': {
    query: `query (${VARIABLES}) { feed(genre: HOUSE, radiusKm: 500, from: { latitude: 52.52, longitude: 13.405 }, ${ARGS}) { ${PAGE} } }`,
    at: (data) => data.feed as Connection,
  },
  mixesByUser: {
    query: `query (${VARIABLES}, $userName: String!) { mixesByUser(userName: $userName, ${ARGS}) { ${PAGE} } }`,
    at: (data) => data.mixesByUser as Connection,
  },
  savedMixes: {
    query: `query (${VARIABLES}) { me { savedMixes(${ARGS}) { ${PAGE} } } }`,
    at: (data) => (data.me as { savedMixes: Connection }).savedMixes,
    token: () => listener.token,
  },
  following: {
    query: `query (${VARIABLES}) { following(${ARGS}) { ${PAGE} } }`,
    at: (data) => data.following as Connection,
    token: () => listener.token,
  },
  followers: {
    query: `query (${VARIABLES}) { followers(${ARGS}) { ${PAGE} } }`,
    at: (data) => data.followers as Connection,
    token: () => listener.token,
  },
  notifications: {
    query: `query (${VARIABLES}) { notifications(${ARGS}) { ${PAGE} } }`,
    at: (data) => data.notifications as Connection,
    token: () => listener.token,
  },
  tracks: {
    query: `query (${VARIABLES}) { tracks(search: "paging song", ${ARGS}) { ${PAGE} } }`,
    at: (data) => data.tracks as Connection,
  },
  'a track’s mixes': {
    query: `query (${VARIABLES}, $trackId: ID!) { track(id: $trackId) { mixes(${ARGS}) { ${PAGE} } } }`,
    at: (data) => (data.track as { mixes: Connection }).mixes,
  },
};

/** How many items each connection holds where not five: every mix, everywhere, and saved or playing the track. */
const EXPECTED_LENGTH: Record<string, number> = { feed: 7, savedMixes: 7, 'a track’s mixes': 7 };

async function page(name: string, variables: Record<string, unknown>): Promise<Connection> {
  const connection = CONNECTIONS[name];
  const answer = await gql(t.app, connection.query, { ...variables, userName: dj.userName, trackId }, connection.token?.());
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  const found = connection.at(answer.data as Record<string, unknown>);
  expect(found.pageInfo.startCursor).toBe(found.edges.at(0)?.cursor ?? null);
  expect(found.pageInfo.endCursor).toBe(found.edges.at(-1)?.cursor ?? null);
  return found;
}

describe.each(Object.keys(CONNECTIONS))('%s pages both ways', (name) => {
  test('forward to the end, then backward from the end: the same items in the same order, PageInfo true', async () => {
    const everything = (await page(name, { first: 50 })).edges.map((edge) => edge.node.id);
    expect(everything.length).toBe(EXPECTED_LENGTH[name] ?? 5);
    expect(new Set(everything).size).toBe(everything.length);

    const forward: string[] = [];
    const forwardPages: Connection['pageInfo'][] = [];
    let after: string | null = null;
    do {
      const next: Connection = await page(name, { first: 2, after });
      forward.push(...next.edges.map((edge) => edge.node.id));
      forwardPages.push(next.pageInfo);
      after = next.pageInfo.hasNextPage ? next.pageInfo.endCursor : null;
    } while (after);
    expect(forward).toEqual(everything);
    expect(forwardPages.map((info) => [info.hasPreviousPage, info.hasNextPage])).toEqual(
      forwardPages.map((_, index) => [index > 0, index < forwardPages.length - 1]),
    );

    const backwardPages: Connection[] = [];
    let before: string | null = null;
    do {
      const previous: Connection = await page(name, { last: 2, before });
      backwardPages.unshift(previous);
      before = previous.pageInfo.hasPreviousPage ? previous.pageInfo.startCursor : null;
    } while (before);
    expect(backwardPages.flatMap((each) => each.edges.map((edge) => edge.node.id))).toEqual(everything);
    // Backward pages end at the end: the last page is the last two items; only the first page may be short.
    expect(backwardPages.at(-1)?.edges.map((edge) => edge.node.id)).toEqual(everything.slice(-2));
    expect(backwardPages.map((each) => [each.pageInfo.hasPreviousPage, each.pageInfo.hasNextPage])).toEqual(
      backwardPages.map((_, index) => [index > 0, index < backwardPages.length - 1]),
    );

    // `before` a page's start cursor, and `after` a backward page's end cursor, meet the forward walk exactly.
    const middle = await page(name, { first: 2, after: (await page(name, { first: 1 })).pageInfo.endCursor });
    expect(middle.edges.map((edge) => edge.node.id)).toEqual(everything.slice(1, 3));
    const justBefore = await page(name, { last: 5, before: middle.pageInfo.startCursor });
    expect(justBefore.edges.map((edge) => edge.node.id)).toEqual(everything.slice(0, 1));
    expect(justBefore.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    // `last` alone holds the final items; `before` alone, the default size (everything here).
    expect((await page(name, { last: 3 })).edges.map((edge) => edge.node.id)).toEqual(everything.slice(-3));
    const lastCursor = backwardPages.at(-1)?.pageInfo.endCursor;
    expect((await page(name, { before: lastCursor })).edges.map((edge) => edge.node.id)).toEqual(everything.slice(0, -1));
  });
});

/**
 * Sizes that are no Int fail variable coercion (HTTP 400); what the services refuse is, as everywhere in this API, an
 * error with BAD_USER_INPUT and status 400 beside a null field (GraphQL over HTTP answers such a response 200).
 */
describe('mixing directions and hostile values are 400s', () => {
  const ask = (variables: Record<string, unknown>, query = CONNECTIONS.mixesByUser.query) =>
    gql(t.app, query, { ...variables, userName: dj.userName, trackId }, listener.token);

  test.each(Object.keys(CONNECTIONS))('%s refuses first with last, after with before, first with before, last with after', async (name) => {
    const cursor = (await page(name, { first: 1 })).pageInfo.endCursor;
    for (const variables of [
      { first: 1, last: 1 },
      { after: cursor, before: cursor },
      { first: 1, before: cursor },
      { last: 1, after: cursor },
    ]) {
      const answer = await ask(variables, CONNECTIONS[name].query);
      expect(answer.errors?.[0].extensions, JSON.stringify(variables)).toEqual({ code: 'BAD_USER_INPUT', status: 400 });
      expect(answer.errors?.[0].message).toBe(
        'Page one way: pass first (with after) to page forward, or last (with before) to page backward, not both',
      );
    }
  });

  test('negative, zero, too large, 1e300 and fractional sizes; garbage, foreign and overlong cursors', async () => {
    for (const last of [-1, 0, 51]) {
      const answer = await ask({ last });
      expect(answer.errors?.[0].extensions).toEqual({ code: 'BAD_USER_INPUT', status: 400 });
      expect(answer.errors?.[0].message).toBe('last must be a whole number from 1 to 50');
    }
    for (const last of [1e300, 2.5, '3', 2 ** 31]) {
      const answer = await ask({ last });
      expect(answer.status, String(last)).toBe(400);
      expect(answer.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    }
    for (const before of [
      'garbage',
      encodeCursor(['7', '8', '9']),
      encodeCursor(['2026-01-01T00:00:00.000000Z', 'nope']),
      'x'.repeat(201),
      '\u0000',
    ]) {
      for (const query of [CONNECTIONS.mixesByUser.query, CONNECTIONS.tracks.query, CONNECTIONS.following.query]) {
        const answer = await ask({ last: 2, before }, query);
        expect(answer.errors?.[0].extensions, before).toEqual({ code: 'BAD_USER_INPUT', status: 400 });
        expect(answer.errors?.[0].message).toBe('Invalid cursor: pass a cursor of an earlier page');
      }
    }
    // A follow list's cursor past its end: the last entries before it, nothing beyond.
    const pastTheEnd = (await ask({ last: 2, before: encodeCursor(['9999999']) }, CONNECTIONS.following.query)).data as {
      following: Connection;
    };
    expect(pastTheEnd.following.edges).toHaveLength(2);
    expect(pastTheEnd.following.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
  });

  test('`last` counts in the cost limit like `first`, and a connection asked for neither costs its default size', async () => {
    const cost = async (args: string) => {
      const answer = await gql(
        t.app,
        `{ tracks(search: "paging" ${args}) { edges { node { mixes${args ? `(${args})` : ''} { edges { node { id title } } } } } } }`,
      );
      return answer.status === 400 ? answer.errors?.[0].message : 'allowed';
    };
    expect(await cost('first: 50')).toMatch(/^This query costs \d+, more than the limit/);
    expect(await cost('last: 50')).toBe(await cost('first: 50'));
    expect(await cost('')).toBe(await cost('first: 20'));
    expect(await cost('first: 3')).toBe('allowed');
  });
});
