import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ITrack, Track } from '../src/modules/tracks/track.entity.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { CITIES, draftMix, publishedMix } from './support/mixes.js';

let t: TestApp;
let dj: Member;
beforeAll(async () => {
  t = await createTestApp();
  dj = await signUpMember(t.app, CITIES.paris);
});
afterAll(() => t.close());

const rest = (method: 'GET' | 'POST' | 'PATCH', url: string, member?: Member, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: member ? { 'x-auth-token': member.token } : {}, ...(payload ? { payload } : {}) });

async function catalogue(count: number): Promise<ITrack[]> {
  const em = t.services.orm.em.fork();
  const tracks = Array.from(
    { length: count },
    (_, i) =>
      em.create(Track, {
        title: `Catalogue ${i}`,
        creators: [{ id: `a${i}`, name: `Artist ${i}` }],
        label: { id: `l${i}`, name: `Label ${i}` },
        cover: `https://covers.example.com/${i}.jpg`,
      } as never) as ITrack,
  );
  await em.flush();
  return tracks;
}

describe('saved mixes', () => {
  test('save and remove over REST: newest first, saving twice changes nothing, the logged-in member carries the ids', async () => {
    const fan = await signUpMember(t.app);
    const [first, second, third] = [
      await publishedMix(t.app, t.services, dj, { title: 'First' }),
      await publishedMix(t.app, t.services, dj, { title: 'Second' }),
      await publishedMix(t.app, t.services, dj, { title: 'Third' }),
    ];
    for (const id of [second, first, third, first]) {
      const response = await rest('POST', `/api/user/save-mix/${id}`, fan);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: 'Mix saved', saved: true, mix_id: id });
    }
    const saved = (await rest('GET', '/api/user/saved-mixes-by-me', fan)).json();
    expect(saved.count).toBe(3);
    expect(saved.saved_mixes_by_me.map((mix: { _id: string }) => mix._id)).toEqual([third, first, second]);
    expect(saved.saved_mixes_by_me[0]).toMatchObject({ title: 'Third', user: { user_name: dj.userName }, savedByMe: true });
    expect((await rest('GET', '/api/user/logged-in-user', fan)).json().saved_mixes_by_me).toEqual([third, first, second]);

    const removed = await rest('POST', `/api/user/remove-saved-mix/${first}`, fan);
    expect(removed.json()).toEqual({ message: 'Mix removed from saved mixes', saved: false, mix_id: first });
    expect((await rest('POST', `/api/user/remove-saved-mix/${first}`, fan)).statusCode).toBe(200);
    expect((await rest('GET', '/api/user/logged-in-user', fan)).json().saved_mixes_by_me).toEqual([third, second]);
    expect((await rest('GET', `/api/mix/${first}`, fan)).json().savedByMe).toBe(false);
  });

  test('only mixes anyone may see can be saved', async () => {
    const fan = await signUpMember(t.app);
    const draft = await draftMix(t.services, dj);
    for (const id of [draft, randomUUID(), 'nope']) {
      const response = await rest('POST', `/api/user/save-mix/${id}`, fan);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Mix not found');
    }
    expect((await rest('POST', `/api/user/save-mix/${draft}`)).statusCode).toBe(401);
  });

  test('GraphQL: saveMix, removeSavedMix and Viewer.savedMixes as a connection', async () => {
    const fan = await signUpMember(t.app);
    const ids = [
      await publishedMix(t.app, t.services, dj),
      await publishedMix(t.app, t.services, dj),
      await publishedMix(t.app, t.services, dj),
    ];
    for (const id of ids) {
      const saved = await gql<{ saveMix: { id: string; savedByMe: boolean } }>(
        t.app,
        `mutation ($id: ID!) { saveMix(mixId: $id) { id savedByMe } }`,
        { id },
        fan.token,
      );
      expect(saved.data?.saveMix).toEqual({ id, savedByMe: true });
    }
    const page = (after: string | null) =>
      gql<{ me: { savedMixes: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string }; nodes: { id: string }[] } } }>(
        t.app,
        `query ($after: String) { me { savedMixes(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { id } } } }`,
        { after },
        fan.token,
      );
    const first = (await page(null)).data?.me.savedMixes;
    expect(first?.totalCount).toBe(3);
    expect(first?.nodes.map((node) => node.id)).toEqual([ids[2], ids[1]]);
    const second = (await page(first?.pageInfo.endCursor ?? null)).data?.me.savedMixes;
    expect(second?.nodes.map((node) => node.id)).toEqual([ids[0]]);
    expect(second?.pageInfo.hasNextPage).toBe(false);

    const removed = await gql(t.app, `mutation ($id: ID!) { removeSavedMix(mixId: $id) }`, { id: ids[1] }, fan.token);
    expect(removed.data).toEqual({ removeSavedMix: true });
    expect((await page(null)).data?.me.savedMixes.nodes.map((node) => node.id)).toEqual([ids[2], ids[0]]);
    expect((await gql(t.app, `mutation ($id: ID!) { saveMix(mixId: $id) { id } }`, { id: ids[0] })).errors?.[0].extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
  });

  test('a deactivated mix vanishes from every saved list at once', async () => {
    const fan = await signUpMember(t.app);
    const kept = await publishedMix(t.app, t.services, dj);
    const doomed = await publishedMix(t.app, t.services, dj);
    await rest('POST', `/api/user/save-mix/${kept}`, fan);
    await rest('POST', `/api/user/save-mix/${doomed}`, fan);
    await rest('PATCH', `/api/user/deactivate-mix/${doomed}`, dj);
    const saved = (await rest('GET', '/api/user/saved-mixes-by-me', fan)).json();
    expect(saved.saved_mixes_by_me.map((mix: { _id: string }) => mix._id)).toEqual([kept]);
    expect(saved.count).toBe(1);
    expect((await rest('GET', '/api/user/logged-in-user', fan)).json().saved_mixes_by_me).toEqual([kept]);
    const graph = await gql<{ me: { savedMixes: { totalCount: number; nodes: { id: string }[] } } }>(
      t.app,
      `{ me { savedMixes { totalCount nodes { id } } } }`,
      {},
      fan.token,
    );
    expect(graph.data?.me.savedMixes).toEqual({ totalCount: 1, nodes: [{ id: kept }] });
  });
});

describe('saved tracks', () => {
  test('save and remove over REST answer user.saved_tracks with the REST fields, newest first', async () => {
    const fan = await signUpMember(t.app);
    const [a, b, c] = await catalogue(3);
    await rest('POST', '/api/user/save-track', fan, { trackId: b.id });
    await rest('POST', '/api/user/save-track', fan, { trackId: a.id });
    const response = await rest('POST', '/api/user/save-track', fan, { trackId: c.id });
    expect(response.statusCode).toBe(200);
    const { user } = response.json();
    expect(user._id).toBe(fan.id);
    expect(user.saved_tracks.map((track: { _id: string }) => track._id)).toEqual([c.id, a.id, b.id]);
    expect(user.saved_tracks[0]).toEqual({
      _id: c.id,
      title: c.title,
      creators: [{ id: 'a2', name: 'Artist 2' }],
      label: { name: 'Label 2' },
      release: { cover: 'https://covers.example.com/2.jpg' },
      saved_to_tracks_array_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    // Saving again changes nothing.
    const again = await rest('POST', '/api/user/save-track', fan, { trackId: a.id });
    expect(again.json().user.saved_tracks.map((track: { _id: string }) => track._id)).toEqual([c.id, a.id, b.id]);
    expect((await rest('GET', '/api/user/logged-in-user', fan)).json().saved_tracks).toEqual([c.id, a.id, b.id]);

    const removed = await rest('POST', '/api/user/remove-track', fan, { trackId: a.id });
    expect(removed.json().user.saved_tracks.map((track: { _id: string }) => track._id)).toEqual([c.id, b.id]);

    const byId = await rest('POST', '/api/user/get-tracks-by-id', fan, { trackIds: [b.id, a.id] });
    expect(byId.json().user.saved_tracks.map((track: { _id: string }) => track._id)).toEqual([b.id]);
    const all = await rest('POST', '/api/user/get-tracks-by-id', fan, {});
    expect(all.json().user.saved_tracks.map((track: { _id: string }) => track._id)).toEqual([c.id, b.id]);
  });

  test('unknown tracks are 404, malformed ids 400', async () => {
    const fan = await signUpMember(t.app);
    expect((await rest('POST', '/api/user/save-track', fan, { trackId: randomUUID() })).statusCode).toBe(404);
    const bad = await rest('POST', '/api/user/save-track', fan, { trackId: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('trackId must be the id of a catalogue track');
    expect((await rest('POST', '/api/user/get-tracks-by-id', fan, { trackIds: 'abc' })).statusCode).toBe(400);
  });

  test('tracks from a mix’s tracklist can be saved (GraphQL saveTrack, removeSavedTrack, Viewer.savedTracks)', async () => {
    const fan = await signUpMember(t.app);
    const id = await publishedMix(t.app, t.services, dj);
    const mix = await gql<{ mix: { tracks: { track: { id: string; title: string } }[] } }>(
      t.app,
      `query ($id: ID!) { mix(id: $id) { tracks { track { id title } } } }`,
      { id },
      fan.token,
    );
    const [first, second] = mix.data?.mix.tracks.map((entry) => entry.track) ?? [];
    const save = (trackId: string) =>
      gql<{ saveTrack: { track: { id: string }; savedAt: string }[] }>(
        t.app,
        `mutation ($id: ID!) { saveTrack(trackId: $id) { track { id } savedAt } }`,
        { id: trackId },
        fan.token,
      );
    await save(first.id);
    const saved = await save(second.id);
    expect(saved.data?.saveTrack.map((entry) => entry.track.id)).toEqual([second.id, first.id]);
    const removed = await gql<{ removeSavedTrack: { track: { id: string } }[] }>(
      t.app,
      `mutation ($id: ID!) { removeSavedTrack(trackId: $id) { track { id } } }`,
      { id: second.id },
      fan.token,
    );
    expect(removed.data?.removeSavedTrack.map((entry) => entry.track.id)).toEqual([first.id]);
    const me = await gql<{ me: { savedTracks: { track: { title: string; isManual: boolean } }[] } }>(
      t.app,
      `{ me { savedTracks { track { title isManual } } } }`,
      {},
      fan.token,
    );
    expect(me.data?.me.savedTracks).toEqual([{ track: { title: first.title, isManual: true } }]);
  });
});

describe('the current mix and position', () => {
  test('remembered per member over REST; the logged-in member reads them back; a deactivated mix is forgotten', async () => {
    const fan = await signUpMember(t.app);
    const other = await signUpMember(t.app);
    const id = await publishedMix(t.app, t.services, dj);
    const saved = await rest('POST', '/api/user/save-current-mix', fan, { current_mix: id, current_mix_pos: 123.5 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ current_mix: id, current_mix_pos: 123.5 });
    // The player may send the whole mix object it holds.
    await rest('POST', '/api/user/save-current-mix', other, { current_mix: { _id: id, title: 'x' }, current_mix_pos: 7 });
    expect((await rest('GET', '/api/user/logged-in-user', fan)).json()).toMatchObject({ current_mix: id, current_mix_pos: 123.5 });
    expect((await rest('GET', '/api/user/logged-in-user', other)).json()).toMatchObject({ current_mix: id, current_mix_pos: 7 });

    expect((await rest('POST', '/api/user/save-current-mix', fan, { current_mix: id, current_mix_pos: -1 })).statusCode).toBe(400);
    const draft = await draftMix(t.services, dj);
    expect((await rest('POST', '/api/user/save-current-mix', fan, { current_mix: draft, current_mix_pos: 1 })).statusCode).toBe(404);

    await rest('PATCH', `/api/user/deactivate-mix/${id}`, dj);
    expect((await rest('GET', '/api/user/logged-in-user', fan)).json()).toMatchObject({ current_mix: null, current_mix_pos: 0 });
  });

  test('GraphQL saveCurrentMix, and Viewer.currentMix while it is published', async () => {
    const fan = await signUpMember(t.app);
    const id = await publishedMix(t.app, t.services, dj, { title: 'Now Playing' });
    const saved = await gql<{ saveCurrentMix: { currentMixId: string; currentMixPosition: number; currentMix: { title: string } } }>(
      t.app,
      `mutation ($id: ID) { saveCurrentMix(mixId: $id, position: 61.25) { currentMixId currentMixPosition currentMix { title } } }`,
      { id },
      fan.token,
    );
    expect(saved.data?.saveCurrentMix).toEqual({ currentMixId: id, currentMixPosition: 61.25, currentMix: { title: 'Now Playing' } });
    const cleared = await gql<{ saveCurrentMix: { currentMixId: string | null } }>(
      t.app,
      `mutation { saveCurrentMix(mixId: null) { currentMixId currentMix { id } } }`,
      {},
      fan.token,
    );
    expect(cleared.data?.saveCurrentMix).toEqual({ currentMixId: null, currentMix: null });
  });
});
