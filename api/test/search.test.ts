import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SearchService } from '../src/modules/search/search.service.js';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { draftMix, typedTracks } from './support/mixes.js';
import { waitFor } from './support/wait.js';

/** docs/search.md: one search over mixes, members and tracks, with the catalogue lookup's forgiveness. */

let t: TestApp;
let dj: Member;
let other: Member;
const ids: Record<string, string> = {};

const SEARCH = `query ($q: String!, $types: [SearchType!], $first: Int, $after: String) {
  search(query: $q, types: $types, first: $first, after: $after) {
    totalCount
    edges { cursor viaTrackId node { __typename ... on Mix { id title } ... on User { id userName displayName } ... on Track { id title } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface Edge {
  viaTrackId: string | null;
  node: { __typename: string; id: string; title?: string; userName?: string };
}
const search = async (q: string, types?: string[], first = 20) => {
  const answer = await gql<{ search: { totalCount: number; edges: Edge[] } }>(t.app, SEARCH, { q, types, first });
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  return answer.data?.search.edges ?? [];
};
const ids_ = (edges: Edge[]) => edges.map((edge) => edge.node.id);
const sql = (text: string, params: unknown[] = []) => t.services.orm.em.fork().execute(text, params);

/** A mix published over REST, its tracklist holding the given catalogue tracks after a typed one. */
async function publish(owner: Member, title: string, trackIds: string[] = []): Promise<string> {
  const id = await draftMix(t.services, owner, { title, genre: 'deep_house' });
  const headers = { 'x-auth-token': owner.token };
  await t.app.inject({ method: 'POST', url: '/api/mix/update-mix', headers, payload: { mix_id: id, tracks: typedTracks(5) } });
  for (const [index, trackId] of trackIds.entries()) {
    await sql(`insert into mix_track (id, mix_id, track_id, position) values (gen_random_uuid(), ?, ?, ?)`, [id, trackId, index + 6]);
  }
  const published = await t.app.inject({ method: 'POST', url: '/api/mix/publish-mix', headers, payload: { mix_id: id, code: 'free-mix' } });
  expect(published.statusCode, published.body).toBe(200);
  return id;
}

const indexed = () => t.services.search.indexer.run();

beforeAll(async () => {
  t = await createTestApp();
  dj = await signUpMember(t.app, { userName: 'zoe_lefevre' });
  other = await signUpMember(t.app, { userName: 'marek_novak' });
  await sql(`update app_user set display_name = 'Zoë Lefèvre' where id = ?`, [dj.id]);
  await sql(`update app_user set display_name = 'Marek Novák' where id = ?`, [other.id]);
  await new CatalogueService(t.services.orm).write([
    {
      source: 't',
      externalId: '1',
      title: 'Lumière Noire (Extended Mix)',
      creators: [{ id: null, name: 'Tomi Sato' }],
      label: { id: null, name: 'Nachtwerk Records' },
      cover: null,
      releaseDate: null,
      buy: false,
      newRelease: false,
    },
    {
      source: 't',
      externalId: '2',
      title: 'Harbour Lights',
      creators: [{ id: null, name: 'Quinn Alder' }],
      label: null,
      cover: null,
      releaseDate: null,
      buy: false,
      newRelease: false,
    },
  ]);
  const tracks = await sql(`select id, title from track where external_source = 't' order by external_id`);
  ids.lumiere = tracks[0].id;
  ids.harbour = tracks[1].id;
  ids.velvet = await publish(dj, 'Midnight Velvet Sessions', [ids.lumiere]);
  ids.drive = await publish(other, 'Night Drive');
  ids.driveLong = await publish(other, 'Night Drive Extended Journey');
  ids.draft = await draftMix(t.services, dj, { title: 'Secret Orchard Tapes' });
  await indexed();
});
afterAll(() => t.close());

describe('forgiveness', () => {
  test.each([
    ['exact', 'Midnight Velvet Sessions'],
    ['case and punctuation', 'MIDNIGHT, velvet!!! sessions?'],
    ['a typo within the budget', 'midnihgt velvet'],
    ['word order', 'sessions velvet midnight'],
    ['the start of the last word', 'midnight vel'],
  ])('%s finds the mix', async (_, q) => {
    expect(ids_(await search(q, ['MIX']))[0]).toBe(ids.velvet);
  });

  test('accents and typos in a member’s names; the user name finds them too', async () => {
    expect(ids_(await search('zoe lefevre', ['MEMBER']))[0]).toBe(dj.id);
    expect(ids_(await search('Zoé Lefevere', ['MEMBER']))[0]).toBe(dj.id);
    expect(ids_(await search('marek_novak', ['MEMBER']))[0]).toBe(other.id);
    expect(ids_(await search('nova', ['MEMBER']))[0]).toBe(other.id);
    // A second word's first letter, as it is typed, keeps what the first word found.
    expect(ids_(await search('zoe l', ['MEMBER']))[0]).toBe(dj.id);
  });

  test('a track by title with a typo, by creator, by label', async () => {
    expect(ids_(await search('lumiere noir', ['TRACK']))[0]).toBe(ids.lumiere);
    expect(ids_(await search('tomi sato', ['TRACK']))[0]).toBe(ids.lumiere);
    expect(ids_(await search('nachtwerk', ['TRACK']))[0]).toBe(ids.lumiere);
  });

  test('a mix by its DJ’s name, and by a track or artist of its tracklist (“mixes that play Tomi Sato”)', async () => {
    expect(ids_(await search('zoe lefevre', ['MIX']))).toContain(ids.velvet);
    const playing = await search('tomi sato', ['MIX']);
    expect(playing[0]?.node.id).toBe(ids.velvet);
    expect(playing[0]?.viaTrackId).toBe(ids.lumiere);
    expect(ids_(await search('lumeire noire', ['MIX']))).toContain(ids.velvet);
  });

  test('a typed exact title wins over a longer one holding it', async () => {
    expect(ids_(await search('night drive', ['MIX'])).slice(0, 2)).toEqual([ids.drive, ids.driveLong]);
  });

  test('a long title typed whole wins over a sibling sharing its first words, typo or not', async () => {
    const extended = await publish(other, 'One More Night at the Harbour (Extended Mix)');
    const radio = await publish(other, 'One More Night at the Harbour (Radio Mix)');
    await indexed();
    expect(ids_(await search('One More Night at the Harbour (Extended Mix)', ['MIX']))[0]).toBe(extended);
    expect(ids_(await search('one more night at the harbour extnded mix', ['MIX']))[0]).toBe(extended);
    expect(ids_(await search('One More Night at the Harbour (Radio Mix)', ['MIX']))[0]).toBe(radio);
  });

  test('among equal matches, the mix listened to this week comes before one played long ago', async () => {
    // The old one is the newer upload and has more listens in all, none of them this week; the other a few, all this week.
    const current = await publish(other, 'Amber Lagoon Dub');
    const old = await publish(other, 'Amber Lagoon Dub');
    await sql(
      `insert into listen (id, mix_id, user_id, started_at, ended_at, alive_at)
       select gen_random_uuid(), ?, null, now() - interval '30 days', now() - interval '30 days', now() - interval '30 days'
         from generate_series(1, 40)`,
      [old],
    );
    await sql(`update mix set play_count = 40 where id = ?`, [old]);
    await sql(
      `insert into listen (id, mix_id, user_id, started_at, ended_at, alive_at)
       select gen_random_uuid(), ?, null, now() - interval '1 day', now() - interval '1 day', now() - interval '1 day'
         from generate_series(1, 3)`,
      [current],
    );
    await indexed();
    expect(ids_(await search('amber lagoon dub', ['MIX'])).slice(0, 2)).toEqual([current, old]);
  });

  test('nothing found is an empty page, not an error', async () => {
    expect(await search('qwxzvbnm')).toEqual([]);
  });
});

describe('what may be found', () => {
  test('a draft never appears; published, it is found within a second', async () => {
    expect(ids_(await search('secret orchard tapes'))).not.toContain(ids.draft);
    const headers = { 'x-auth-token': dj.token };
    await t.app.inject({ method: 'POST', url: '/api/mix/update-mix', headers, payload: { mix_id: ids.draft, tracks: typedTracks(5) } });
    const published = await t.app.inject({
      method: 'POST',
      url: '/api/mix/publish-mix',
      headers,
      payload: { mix_id: ids.draft, code: 'free-mix' },
    });
    expect(published.statusCode).toBe(200);
    // The indexer hears the trigger's notification: no one runs it here.
    await waitFor('the published mix to be found', async () => ids_(await search('secret orchard tapes')).includes(ids.draft), {
      timeoutMs: 1000,
    });
  });

  test('a deactivated mix is gone within a second, and so are expired ones', async () => {
    const id = await publish(dj, 'Ephemeral Tides');
    await waitFor('the mix to be found', async () => ids_(await search('ephemeral tides')).includes(id), { timeoutMs: 1000 });
    const gone = await t.app.inject({ method: 'PATCH', url: `/api/user/deactivate-mix/${id}`, headers: { 'x-auth-token': dj.token } });
    expect(gone.statusCode, gone.body).toBe(200);
    await waitFor('the mix to be gone', async () => !ids_(await search('ephemeral tides')).includes(id), { timeoutMs: 1000 });
    await sql(`update mix set expires_at = now() - interval '1 day' where id = ?`, [ids.drive]);
    expect(ids_(await search('night drive', ['MIX']))).not.toContain(ids.drive);
    await sql(`update mix set expires_at = null where id = ?`, [ids.drive]);
    await waitFor('the mix hosted again to be found', async () => ids_(await search('night drive', ['MIX'])).includes(ids.drive), {
      timeoutMs: 1000,
    });
  });
});

describe('several servers', () => {
  test('a word new to the index reaches another server’s in-memory vocabulary within a second', async () => {
    const second = new SearchService(t.services.orm, t.services.mixes, t.databaseUrl, { warn: () => undefined });
    await second.start();
    try {
      const found = async (q: string) => (await second.suggest({ q })).mixes.map((item) => (item.kind === 'mix' ? item.mix.id : ''));
      // Loaded with the words known so far; "quixotic" is not one of them.
      expect(await found('midnight velvet')).toContain(ids.velvet);
      const id = await publish(dj, 'Quixotic Lanterns');
      await waitFor('the other server to find the new words', async () => (await found('quixotik lanterns')).includes(id), {
        timeoutMs: 1000,
      });
    } finally {
      await second.close();
    }
  });
});

describe('calls', () => {
  test('pages by cursor, with totalCount', async () => {
    const first = await gql<{ search: { totalCount: number; pageInfo: { endCursor: string; hasNextPage: boolean } } }>(t.app, SEARCH, {
      q: 'night',
      types: ['MIX'],
      first: 1,
    });
    expect(first.data?.search.totalCount).toBeGreaterThanOrEqual(2);
    expect(first.data?.search.pageInfo.hasNextPage).toBe(true);
    const next = await gql<{ search: { edges: Edge[] } }>(t.app, SEARCH, {
      q: 'night',
      types: ['MIX'],
      first: 1,
      after: first.data?.search.pageInfo.endCursor,
    });
    expect(next.data?.search.edges).toHaveLength(1);
  });

  test('suggestions: at most eight, grouped', async () => {
    const answer = await gql<{ searchSuggestions: { mixes: { id: string }[]; members: { id: string }[]; tracks: { id: string }[] } }>(
      t.app,
      '{ searchSuggestions(query: "zoe") { mixes { id } members { id } tracks { id } } }',
    );
    const found = answer.data?.searchSuggestions;
    expect(found?.members.map((member) => member.id)).toContain(dj.id);
    expect((found?.mixes.length ?? 0) + (found?.members.length ?? 0) + (found?.tracks.length ?? 0)).toBeLessThanOrEqual(8);
  });

  test('REST GET /api/search and /api/search/suggestions', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/search?q=midnight%20velvet&type=mix&page=0' });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().results[0]).toMatchObject({ type: 'mix', mix: { _id: ids.velvet } });
    const suggestions = await t.app.inject({ method: 'GET', url: '/api/search/suggestions?q=tomi%20sat' });
    expect(suggestions.json().tracks[0]).toMatchObject({ type: 'track', track: { _id: ids.lumiere } });
  });

  test.each([
    ['empty', ''],
    ['too long', 'x'.repeat(101)],
    ['NUL', 'a\u0000b'],
    ['a lone surrogate', 'a\uD800b'],
  ])('bad text (%s) is a 400 on both skins', async (_, q) => {
    const answer = await gql(t.app, SEARCH, { q });
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    // A lone surrogate cannot be sent in a URL (UTF-8 has no form for it); the others can.
    if (!q.includes('\uD800'))
      expect((await t.app.inject({ method: 'GET', url: `/api/search?q=${encodeURIComponent(q)}` })).statusCode).toBe(400);
  });

  test('bad pages, types and filters are 400s', async () => {
    for (const url of [
      '/api/search?q=a&page=-1',
      '/api/search?q=a&type=planets',
      '/api/search?q=a&page=99',
      '/api/search?q=a&within_km=5',
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(400);
    }
    expect((await gql(t.app, SEARCH, { q: 'a', first: 0 })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
