/**
 * Anonymous GETs of persisted feed and mix queries are cacheable by a CDN (Cache-Control public, ETag, 304 on
 * If-None-Match); signed-in requests, POSTs, queries sent in full and other operations never are.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, freshIp, type Member, signUpMember, type TestApp } from './support/app.js';
import { CITIES, publishedMix } from './support/mixes.js';

let t: TestApp;
let dj: Member;
let mixId: string;

const FEED = `query Feed($genre: Genre!, $radiusKm: Float!, $first: Int!) {
  feed(genre: $genre, radiusKm: $radiusKm, first: $first) { totalCount nodes { id title savedByMe isOwner } }
}`;
const MIX_PAGE = 'query MixPage($id: ID!) { mix(id: $id) { id title savedByMe } }';
const OTHER = 'query SomeMix($id: ID!) { mix(id: $id) { id title } }';
const sha256 = (query: string) => createHash('sha256').update(query).digest('hex');

/** A GET as Apollo Client's persisted-query link sends it: the hash in `extensions`, the query itself only when asked. */
function getUrl(query: string, variables: Record<string, unknown>, withQuery: boolean, operationName: string) {
  const params = new URLSearchParams({
    operationName,
    variables: JSON.stringify(variables),
    extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(query) } }),
  });
  if (withQuery) params.set('query', query);
  return `/graphql?${params}`;
}

async function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers: { 'apollo-require-preflight': 'true', ...headers }, remoteAddress: freshIp() });
}

beforeAll(async () => {
  t = await createTestApp();
  dj = await signUpMember(t.app, CITIES.berlin);
  mixId = await publishedMix(t.app, t.services, dj, { genre: 'techno' });
});
afterAll(() => t.close());

describe('cacheable anonymous GETs of persisted queries', () => {
  const feedVariables = { genre: 'ALL', radiusKm: 20000, first: 20 };

  test('a persisted feed answers publicly with an ETag, and a 304 to its tag', async () => {
    // The first GET registers the query with its hash (Apollo's automatic persisted queries); later ones send the hash only.
    const registered = await get(getUrl(FEED, feedVariables, true, 'Feed'));
    expect(registered.statusCode).toBe(200);
    const response = await get(getUrl(FEED, feedVariables, false, 'Feed'));
    expect(response.statusCode).toBe(200);
    expect(response.json().data.feed.nodes.map((node: { id: string }) => node.id)).toContain(mixId);
    expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    const etag = response.headers.etag;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(response.headers.vary).toMatch(/x-auth-token/);

    const again = await get(getUrl(FEED, feedVariables, false, 'Feed'), { 'if-none-match': String(etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await get(getUrl(FEED, feedVariables, false, 'Feed'), { 'if-none-match': 'W/"something-else"' });
    expect(other.statusCode).toBe(200);
    expect(other.headers.etag).toBe(etag);
  });

  test('a persisted mix page too', async () => {
    const response = await get(getUrl(MIX_PAGE, { id: mixId }, true, 'MixPage'));
    expect(response.statusCode).toBe(200);
    expect(response.json().data.mix.id).toBe(mixId);
    expect(response.headers['cache-control']).toMatch(/^public/);
    expect(response.headers.etag).toBeTruthy();
  });

  test('never for a signed-in request, whichever header carries its token', async () => {
    await get(getUrl(FEED, feedVariables, true, 'Feed'));
    const signedIn: Record<string, string>[] = [{ authorization: `Bearer ${dj.token}` }, { 'x-auth-token': dj.token }];
    for (const headers of signedIn) {
      const response = await get(getUrl(FEED, feedVariables, false, 'Feed'), headers);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.feed.nodes.find((node: { id: string }) => node.id === mixId)?.isOwner).toBe(true);
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.headers.etag).toBeUndefined();
    }
  });

  test('never for a query sent in full without its hash, another operation, or an answer with errors', async () => {
    const plain = await get(`/graphql?${new URLSearchParams({ query: FEED, variables: JSON.stringify(feedVariables) })}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('private, no-store');
    const other = await get(getUrl(OTHER, { id: mixId }, true, 'SomeMix'));
    expect(other.statusCode).toBe(200);
    expect(other.json().data.mix.id).toBe(mixId);
    expect(other.headers['cache-control']).toBe('private, no-store');
    // A radius without a point is refused (docs/home-feed.md#filter): no cache keeps the refusal.
    const refused = await get(getUrl(FEED, { ...feedVariables, radiusKm: 500 }, true, 'Feed'));
    expect(refused.json().errors?.length).toBeGreaterThan(0);
    expect(refused.headers['cache-control']).toBe('private, no-store');
    expect(refused.headers.etag).toBeUndefined();
  });

  test('a POST of the same query is not cacheable', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json' },
      payload: { query: FEED, variables: feedVariables },
      remoteAddress: freshIp(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBeUndefined();
    expect(response.headers.etag).toBeUndefined();
  });
});
