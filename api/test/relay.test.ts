import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { draftMix, publishedMix } from './support/mixes.js';

let t: TestApp;
let dj: Member;
let mixIds: string[];
let trackId: string;
beforeAll(async () => {
  t = await createTestApp();
  dj = await signUpMember(t.app);
  mixIds = [];
  for (let index = 0; index < 3; index++) mixIds.push(await publishedMix(t.app, t.services, dj, { title: `Relay ${index}` }));
  await new CatalogueService(t.services.orm).write([
    {
      source: 'test',
      externalId: 'relay',
      title: 'Node Track',
      creators: [{ id: null, name: 'Someone' }],
      label: { id: null, name: 'Relay Records' },
      cover: 'https://covers.example.com/relay.jpg',
      releaseDate: null,
      buy: false,
      newRelease: false,
    },
  ]);
  const [row] = await t.services.orm.em.fork().execute<{ id: string }[]>(`select id from track where external_id = 'relay'`);
  trackId = row.id;
}, 60_000);
afterAll(() => t.close());

const NODE = `query ($id: ID!) { node(id: $id) { __typename id ... on Mix { title } ... on User { userName } ... on Track { title } } }`;

describe('Node', () => {
  test('node(id:) refetches a mix, a member and a track by the id they carry', async () => {
    const mix = await gql<{ node: unknown }>(t.app, NODE, { id: mixIds[0] });
    expect(mix.data?.node).toEqual({ __typename: 'Mix', id: mixIds[0], title: 'Relay 0' });
    const member = await gql<{ node: unknown }>(t.app, NODE, { id: dj.id });
    expect(member.data?.node).toEqual({ __typename: 'User', id: dj.id, userName: dj.userName });
    const track = await gql<{ node: unknown }>(t.app, NODE, { id: trackId });
    expect(track.data?.node).toEqual({ __typename: 'Track', id: trackId, title: 'Node Track' });
  });

  test('what the viewer may not see, unknown ids and ids that are no UUID are null; nodes keeps the order', async () => {
    const draft = await draftMix(t.services, dj);
    const answer = await gql<{ nodes: unknown[] }>(t.app, `query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`, {
      ids: [mixIds[1], draft, '00000000-0000-4000-8000-000000000000', 'not-an-id', dj.id],
    });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.nodes).toEqual([{ id: mixIds[1] }, null, null, null, { id: dj.id }]);
    // The owner sees their own draft.
    const own = await gql<{ node: unknown }>(t.app, `query ($id: ID!) { node(id: $id) { id } }`, { id: draft }, dj.token);
    expect(own.data?.node).toEqual({ id: draft });
    const many = await gql(t.app, `query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: Array(51).fill(dj.id) });
    expect(many.errors?.[0].message).toMatch(/at most 50/);
  });
});

test('PageInfo is whole: start and end cursors, and a previous page once paging after a cursor', async () => {
  const page = `query ($after: String) { mixesByUser(userName: "${dj.userName}", first: 2, after: $after) {
    edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
  type Page = { mixesByUser: { edges: { cursor: string }[]; pageInfo: Record<string, unknown> } };
  const first = (await gql<Page>(t.app, page)).data?.mixesByUser;
  expect(first?.pageInfo).toEqual({
    hasNextPage: true,
    hasPreviousPage: false,
    startCursor: first?.edges[0].cursor,
    endCursor: first?.edges[1].cursor,
  });
  const second = (await gql<Page>(t.app, page, { after: first?.pageInfo.endCursor })).data?.mixesByUser;
  expect(second?.pageInfo).toEqual({
    hasNextPage: false,
    hasPreviousPage: true,
    startCursor: second?.edges[0].cursor,
    endCursor: second?.edges[0].cursor,
  });
});

test('the depth limit means something: tracks and mixes nest without end (Track.mixes, Mix.tracks), so 9 levels are refused', async () => {
  const nested = (leaf: string) =>
    `query ($id: ID!) { track(id: $id) { mixes { edges { node { tracks { track { mixes { edges { ${leaf} } } } } } } } } }`;
  // Root fields are at depth 0: `cursor` is at 8, the default limit; `node { id }` reaches 9.
  const within = await gql(t.app, nested('cursor'), { id: trackId });
  expect(within.errors).toBeUndefined();
  const deeper = await gql(t.app, nested('node { id }'), { id: trackId });
  expect(deeper.status).toBe(400);
  expect(deeper.errors?.[0]).toMatchObject({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
  expect(deeper.errors?.[0].message).toMatch(/exceeds maximum operation depth of 8/);
});
