import { afterEach, describe, expect, it, vi } from 'vitest';
import { FeedDocument, type FeedQueryVariables } from '../gql/graphql';
import { createApolloClient, sendsAsCacheableGet } from './apollo';

const FEED_ANSWER = {
  data: { feed: { totalCount: 0, totalCountIsLowerBound: false, nodes: [], pageInfo: { hasNextPage: false, endCursor: null } } },
};
const answer = (body: object) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
const variables: FeedQueryVariables = { genre: 'ALL', radiusKm: 20000, first: 20 };

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe("a visitor's feed and mix pages go as cacheable GETs (docs/public-api.md#caching)", () => {
  it('only the cacheable operations, and only without a sign-in', () => {
    expect(sendsAsCacheableGet('Feed', false)).toBe(true);
    expect(sendsAsCacheableGet('MixPage', false)).toBe(true);
    expect(sendsAsCacheableGet('Feed', true)).toBe(false);
    expect(sendsAsCacheableGet('Viewer', false)).toBe(false);
  });

  it('a visitor sends the feed as a GET of its hash; a member sends it as a POST with the token', async () => {
    const sent: { method: string; url: string; token: string | null }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        sent.push({ method: init.method ?? 'GET', url, token: new Headers(init.headers).get('x-auth-token') });
        return answer(FEED_ANSWER);
      }),
    );
    await createApolloClient('http://localhost/graphql').query({ query: FeedDocument, variables });
    expect(sent[0]?.method).toBe('GET');
    expect(decodeURIComponent(sent[0]?.url ?? '')).toMatch(/"persistedQuery":\{"version":1,"sha256Hash":"[0-9a-f]{64}"\}/);
    expect(sent[0]?.url).not.toContain('query=');

    localStorage.setItem('token', 'a-member');
    await createApolloClient('http://localhost/graphql').query({ query: FeedDocument, variables });
    expect(sent[1]).toMatchObject({ method: 'POST', token: 'a-member' });
  });
});
