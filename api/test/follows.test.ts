import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { CITIES } from './support/mixes.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const auth = (member: Member) => ({ 'x-auth-token': member.token });
const follow = (from: Member, to: { id: string }) => t.app.inject({ method: 'GET', url: `/api/user/follow/${to.id}`, headers: auth(from) });

describe('the follow toggle', () => {
  test('answers FOLLOWED then UNFOLLOWED, and the profile shows it', async () => {
    const fan = await signUpMember(t.app);
    const dj = await signUpMember(t.app);
    expect((await follow(fan, dj)).json()).toEqual({ code: 'FOLLOWED' });
    const profile = await t.app.inject({ method: 'GET', url: `/api/user/by-user-name/${dj.userName}`, headers: auth(fan) });
    expect(profile.json().isFollowing).toBe(true);
    expect((await follow(fan, dj)).json()).toEqual({ code: 'UNFOLLOWED' });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/user/by-user-name/${dj.userName}`, headers: auth(fan) })).json().isFollowing,
    ).toBe(false);
  });

  test('nobody follows themselves; unknown members are 404; no token is 401', async () => {
    const member = await signUpMember(t.app);
    const self = await follow(member, member);
    expect(self.statusCode).toBe(400);
    expect(self.json().error).toBe('You cannot follow yourself');
    expect((await follow(member, { id: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await follow(member, { id: 'not-an-id' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/user/follow/${member.id}` })).statusCode).toBe(401);
  });

  test('over GraphQL, with public follower and following counts', async () => {
    const fan = await signUpMember(t.app);
    const dj = await signUpMember(t.app);
    const toggled = await gql(t.app, `mutation ($id: ID!) { toggleFollow(userId: $id) }`, { id: dj.id }, fan.token);
    expect(toggled.data).toEqual({ toggleFollow: 'FOLLOWED' });
    const counts = await gql(
      t.app,
      `query ($a: String!, $b: String!) { a: user(userName: $a) { followerCount followingCount } b: user(userName: $b) { followerCount followingCount } }`,
      {
        a: dj.userName,
        b: fan.userName,
      },
    );
    expect(counts.data).toEqual({ a: { followerCount: 1, followingCount: 0 }, b: { followerCount: 0, followingCount: 1 } });
    expect(
      (await gql(t.app, `mutation ($id: ID!) { toggleFollow(userId: $id) }`, { id: fan.id }, fan.token)).errors?.[0].extensions?.code,
    ).toBe('BAD_USER_INPUT');
  });
});

describe('follow lists', () => {
  let star: Member;
  let fans: Member[];
  beforeAll(async () => {
    star = await signUpMember(t.app, CITIES.berlin);
    fans = [];
    for (let i = 0; i < 25; i++) {
      const fan = await signUpMember(t.app, i === 24 ? CITIES.london : {});
      await follow(fan, star);
      fans.push(fan);
    }
    await follow(star, fans[24]);
  });

  test('followers come 20 a page with the total count, newest first', async () => {
    const first = (await t.app.inject({ method: 'GET', url: `/api/user/get-followers/${star.userName}/1`, headers: auth(star) })).json();
    expect(first.count).toBe(25);
    expect(first.results).toHaveLength(20);
    expect(first.results[0].user.user_name).toBe(fans[24].userName);
    expect(Object.keys(first.results[0].user)).toEqual(
      expect.arrayContaining(['_id', 'user_name', 'display_name', 'user_image', 'user_type', 'location']),
    );
    const second = (await t.app.inject({ method: 'GET', url: `/api/user/get-followers/${star.userName}/2`, headers: auth(star) })).json();
    expect(second.results).toHaveLength(5);
    const all = [...first.results, ...second.results].map((entry: { user: { _id: string } }) => entry.user._id);
    expect(new Set(all).size).toBe(25);
  });

  test('each entry carries its distance from the viewer (Berlin to London about 930 km)', async () => {
    const following = (
      await t.app.inject({ method: 'GET', url: `/api/user/get-following/${star.userName}/1`, headers: auth(star) })
    ).json();
    expect(following.count).toBe(1);
    expect(following.results[0].distance).toBeGreaterThan(920);
    expect(following.results[0].distance).toBeLessThan(940);
  });

  test('a member may list only their own follows over REST; bad pages are 400s', async () => {
    const other = await t.app.inject({ method: 'GET', url: `/api/user/get-followers/${star.userName}/1`, headers: auth(fans[0]) });
    expect(other.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/user/get-followers/${star.userName}/0`, headers: auth(star) })).statusCode).toBe(
      400,
    );
    expect((await t.app.inject({ method: 'GET', url: `/api/user/get-followers/${star.userName}/x`, headers: auth(star) })).statusCode).toBe(
      400,
    );
    expect((await t.app.inject({ method: 'GET', url: `/api/user/get-followers/${star.userName}/1` })).statusCode).toBe(401);
  });

  test('the logged-in user lists whom they follow', async () => {
    const me = (await t.app.inject({ method: 'GET', url: '/api/user/logged-in-user', headers: auth(fans[3]) })).json();
    expect(me.following).toEqual([{ user: expect.objectContaining({ _id: star.id, user_name: star.userName }) }]);
  });

  test('GraphQL pages the viewer’s followers by cursor with totalCount', async () => {
    const query = `query ($after: String) { followers(first: 20, after: $after) { totalCount edges { node { userName } distanceKm } pageInfo { hasNextPage endCursor } } }`;
    const first = await gql<{ followers: { totalCount: number; edges: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string } } }>(
      t.app,
      query,
      {},
      star.token,
    );
    expect(first.data?.followers.totalCount).toBe(25);
    expect(first.data?.followers.edges).toHaveLength(20);
    expect(first.data?.followers.pageInfo.hasNextPage).toBe(true);
    const second = await gql<{ followers: { edges: unknown[]; pageInfo: { hasNextPage: boolean } } }>(
      t.app,
      query,
      { after: first.data?.followers.pageInfo.endCursor },
      star.token,
    );
    expect(second.data?.followers.edges).toHaveLength(5);
    expect(second.data?.followers.pageInfo.hasNextPage).toBe(false);
    expect((await gql(t.app, query, { after: 'garbage' }, star.token)).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((await gql(t.app, query)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
  });

  test('each listed member says whether the viewer follows them, so the list can show Follow or Following', async () => {
    const viewer = await signUpMember(t.app);
    const followedBack = await signUpMember(t.app);
    const notFollowedBack = await signUpMember(t.app);
    await follow(viewer, followedBack);
    await follow(followedBack, viewer);
    await follow(notFollowedBack, viewer);
    const lists = await gql<Record<'following' | 'followers', { edges: { node: { id: string; isFollowing: boolean | null } }[] }>>(
      t.app,
      '{ following { edges { node { id isFollowing } } } followers { edges { node { id isFollowing } } } }',
      {},
      viewer.token,
    );
    expect(lists.data?.following.edges.map((edge) => edge.node)).toEqual([{ id: followedBack.id, isFollowing: true }]);
    expect(new Map(lists.data?.followers.edges.map((edge) => [edge.node.id, edge.node.isFollowing]))).toEqual(
      new Map([
        [followedBack.id, true],
        [notFollowedBack.id, false],
      ]),
    );
  });
});
