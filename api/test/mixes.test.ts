import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostingEnds } from '../src/modules/mixes/mix-lifecycle.js';
import { Entitlement, Payment } from '../src/modules/payments/payment.entity.js';
import { type ITrack, Track } from '../src/modules/tracks/track.entity.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { CITIES, draftMix, publishedDaysAgo, publishedMix, typedTracks } from './support/mixes.js';

/** Days of hosting a mix published now has: a year, 365 or 366 days. */
const A_YEAR = Math.round((hostingEnds(new Date()).getTime() - Date.now()) / 86_400_000);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const rest = (method: 'GET' | 'POST' | 'PATCH', url: string, member?: Member, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: member ? { 'x-auth-token': member.token } : {}, ...(payload ? { payload } : {}) });

async function catalogueTrack(): Promise<ITrack> {
  const em = t.services.orm.em.fork();
  const track = em.create(Track, {
    title: 'Known Track',
    creators: [{ id: 'artist-1', name: 'Known Artist' }],
    label: { id: 'label-1', name: 'Known Label' },
    cover: 'https://covers.example.com/known.jpg',
    buy: true,
    newRelease: true,
  } as never) as ITrack;
  await em.flush();
  return track;
}

describe('the tracklist (update-mix, setTracklist)', () => {
  test('keeps the order; an entry naming a catalogue track uses it, every other entry becomes a manual track', async () => {
    const dj = await signUpMember(t.app, CITIES.london);
    const known = await catalogueTrack();
    const id = await draftMix(t.services, dj);
    const response = await rest('POST', '/api/mix/update-mix', dj, {
      mix_id: id,
      tracks: [
        { name: 'Whatever the uploader typed', artists: [{ name: 'Someone' }], uuid: known.id, is_manual: false, isSelected: true },
        { name: 'Typed over a known id', creators: 'Typist', uuid: known.id, is_manual: true },
        { name: 'Unknown id', creators: ['B', 'C'], uuid: randomUUID(), is_manual: true },
        { name: 'With label and cover', creators: 'D', label: 'Small Label', album: { cover: 'https://covers.example.com/d.jpg' } },
        { name: 'Artists only', artists: [{ name: 'E' }] },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const tracks = response.json().tracks;
    expect(tracks.map((track: { title: string }) => track.title)).toEqual([
      'Known Track',
      'Typed over a known id',
      'Unknown id',
      'With label and cover',
      'Artists only',
    ]);
    expect(tracks[0]).toMatchObject({
      _id: known.id,
      track: known.id,
      is_manual: false,
      creators: [{ id: 'artist-1', name: 'Known Artist' }],
      label: { id: 'label-1', name: 'Known Label' },
      buy: true,
      new_release: true,
    });
    expect(tracks[1]).toMatchObject({ is_manual: true, creators: [{ id: null, name: 'Typist' }] });
    expect(tracks[1]._id).not.toBe(known.id);
    expect(tracks[2]).toMatchObject({ is_manual: true, creators: [{ name: 'B' }, { name: 'C' }] });
    expect(tracks[3]).toMatchObject({ label: { id: null, name: 'Small Label' }, cover: 'https://covers.example.com/d.jpg' });
    expect(tracks[4]).not.toHaveProperty('new_release');
    expect(tracks[4].creators).toEqual([{ id: null, name: 'E' }]);

    // A second list replaces the first.
    await rest('POST', '/api/mix/update-mix', dj, { id, tracks: typedTracks(6, 'Second') });
    const draft = await rest('GET', `/api/mix/upload/${id}`, dj);
    expect(draft.json().current_mix.tracks.map((track: { title: string }) => track.title)).toEqual(
      typedTracks(6, 'Second').map((entry) => entry.name),
    );
  });

  test('fewer than 5 or more than 30 entries is a 400 naming the rule, in both skins', async () => {
    const dj = await signUpMember(t.app);
    const id = await draftMix(t.services, dj);
    for (const count of [0, 4, 31]) {
      const response = await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks: typedTracks(count) });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(`A tracklist needs 5 to 30 tracks; this one has ${count}`);
    }
    expect((await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks: typedTracks(30) })).statusCode).toBe(200);
    expect((await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks: 'five tracks' })).json().message).toBe(
      'tracks must be a list of 5 to 30 track entries',
    );
    const graph = await gql(
      t.app,
      `mutation ($id: ID!, $tracks: [TracklistEntryInput!]!) { setTracklist(mixId: $id, tracks: $tracks) { position } }`,
      { id, tracks: Array.from({ length: 4 }, (_, i) => ({ title: `T${i}`, creators: ['A'] })) },
      dj.token,
    );
    expect(graph.errors?.[0]).toMatchObject({
      message: 'A tracklist needs 5 to 30 tracks; this one has 4',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  test('every entry needs an artist and a title (docs/upload.md#tracklist-rules: Missing: Empty fields)', async () => {
    const dj = await signUpMember(t.app);
    const id = await draftMix(t.services, dj);
    const noArtist = typedTracks(5).map((entry, index) => (index === 2 ? { ...entry, creators: '  ' } : entry));
    const response = await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks: noArtist });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Missing: Empty fields (track 3 needs an artist and a title)');
    const noTitle = typedTracks(5).map((entry, index) => (index === 0 ? { ...entry, name: '' } : entry));
    expect((await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks: noTitle })).json().message).toBe(
      'Missing: Empty fields (track 1 needs an artist and a title)',
    );
  });

  test('GraphQL setTracklist answers the tracklist in order', async () => {
    const dj = await signUpMember(t.app);
    const id = await draftMix(t.services, dj);
    const known = await catalogueTrack();
    const tracks = [
      { title: 'ignored', creators: ['x'], catalogueTrackId: known.id },
      ...Array.from({ length: 5 }, (_, i) => ({ title: `Typed ${i}`, creators: [`Artist ${i}`], label: 'L', coverUrl: '' })),
    ];
    const result = await gql<{ setTracklist: { position: number; track: { id: string; title: string; isManual: boolean } }[] }>(
      t.app,
      `mutation ($id: ID!, $tracks: [TracklistEntryInput!]!) { setTracklist(mixId: $id, tracks: $tracks) { position track { id title isManual } } }`,
      { id, tracks },
      dj.token,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.setTracklist.map((entry) => [entry.position, entry.track.title, entry.track.isManual])).toEqual([
      [1, 'Known Track', false],
      ...Array.from({ length: 5 }, (_, i) => [i + 2, `Typed ${i}`, true]),
    ]);
    expect(result.data?.setTracklist[0].track.id).toBe(known.id);
  });
});

describe('publishing with the beta code', () => {
  test('no code and no payment is a 402; a wrong code a 400 "Invalid code:"; the code trimmed and lower-cased publishes', async () => {
    const dj = await signUpMember(t.app);
    const id = await draftMix(t.services, dj);
    await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks: typedTracks(5) });

    const noCode = await rest('POST', '/api/mix/publish-mix', dj, { mix_id: id });
    expect(noCode.statusCode).toBe(402);
    expect(noCode.json().message).toBe('Publishing needs a payment for this mix, an active subscription or a BETA code');
    const wrong = await rest('POST', '/api/mix/publish-mix', dj, { mix_id: id, code: 'free-mixes' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/^Invalid code:/);
    expect((await rest('GET', `/api/mix/public/${id}`)).statusCode).toBe(404);

    const published = await rest('POST', '/api/mix/publish-mix', dj, { mix_id: id, code: '  FREE-Mix ' });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().current_mix).toMatchObject({ _id: id, status: 'published', ExpiringIn: A_YEAR, isExpired: false });
    const entitlements = await t.services.orm.em.fork().find(Entitlement, { mix: id });
    expect(entitlements.map((entitlement) => [entitlement.source, entitlement.code])).toEqual([['code', 'free-mix']]);
    expect((await rest('GET', `/api/mix/public/${id}`)).json().mix_found).toBe(true);

    // Publishing twice is harmless: the mix as it is, and no second entitlement.
    const again = await rest('POST', '/api/mix/publish-mix', dj, { mix_id: id, code: 'free-mix' });
    expect(again.statusCode).toBe(200);
    expect(again.json().current_mix).toMatchObject({ _id: id, status: 'published' });
    expect(await t.services.orm.em.fork().count(Entitlement, { mix: id })).toBe(1);
  });

  test('two publish requests at once publish once, with one entitlement', async () => {
    const dj = await signUpMember(t.app);
    const id = await draftMix(t.services, dj);
    await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks: typedTracks(5) });
    const statuses = await Promise.all(
      [1, 2].map(() => rest('POST', '/api/mix/publish-mix', dj, { mix_id: id, code: 'free-mix' }).then((r) => r.statusCode)),
    );
    expect(statuses).toEqual([200, 200]);
    expect(await t.services.orm.em.fork().count(Entitlement, { mix: id })).toBe(1);
  });

  test('a draft publishes only once it has its tracklist', async () => {
    const dj = await signUpMember(t.app);
    const id = await draftMix(t.services, dj);
    const response = await rest('POST', '/api/mix/publish-mix', dj, { mix_id: id, code: 'free-mix' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Add 5 to 30 tracks before publishing');
  });

  test('a paid purchase’s entitlement is evidence enough: no code needed', async () => {
    const dj = await signUpMember(t.app);
    const id = await draftMix(t.services, dj);
    await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks: typedTracks(5) });
    const em = t.services.orm.em.fork();
    const payment = em.create(Payment, {
      user: dj.id,
      mix: id,
      kind: 'single',
      provider: 'test',
      providerRef: `cs_test_${id}`,
      status: 'paid',
      amountCents: 400,
    });
    em.create(Entitlement, { user: dj.id, mix: id, payment, source: 'single', validFrom: new Date(Date.now() - 1000), validUntil: null });
    await em.flush();
    const response = await rest('POST', '/api/mix/publish-mix', dj, { mix_id: id });
    expect(response.statusCode, response.body).toBe(200);
  });

  test('GraphQL publishMix: PAYMENT_REQUIRED without a code, BAD_USER_INPUT with a wrong one, the mix with the right one', async () => {
    const dj = await signUpMember(t.app);
    const id = await draftMix(t.services, dj, { genre: 'deep_house' });
    await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks: typedTracks(5) });
    const publish = (code: string | null) =>
      gql<{ publishMix: { id: string; status: string; genre: string; expiringIn: number; isNewUpload: boolean } }>(
        t.app,
        `mutation ($id: ID!, $code: String) { publishMix(mixId: $id, code: $code) { id status genre expiringIn isNewUpload } }`,
        { id, code },
        dj.token,
      );
    expect((await publish(null)).errors?.[0].extensions?.code).toBe('PAYMENT_REQUIRED');
    expect((await publish('nope')).errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect((await publish('free-mix')).data?.publishMix).toEqual({
      id,
      status: 'PUBLISHED',
      genre: 'DEEP_HOUSE',
      expiringIn: A_YEAR,
      isNewUpload: true,
    });
  });

  test('the codes come from BETA_CODES', async () => {
    const other = await createTestApp({ BETA_CODES: 'Summer-24, gift' });
    try {
      const dj = await signUpMember(other.app);
      const headers = { 'x-auth-token': dj.token };
      const id = await draftMix(other.services, dj);
      await other.app.inject({ method: 'POST', url: '/api/mix/update-mix', headers, payload: { mix_id: id, tracks: typedTracks(5) } });
      const old = await other.app.inject({
        method: 'POST',
        url: '/api/mix/publish-mix',
        headers,
        payload: { mix_id: id, code: 'free-mix' },
      });
      expect(old.statusCode).toBe(400);
      const ok = await other.app.inject({
        method: 'POST',
        url: '/api/mix/publish-mix',
        headers,
        payload: { mix_id: id, code: 'SUMMER-24' },
      });
      expect(ok.statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('only the owner changes a mix', () => {
  test('another member gets 403 for update, publish and deactivate, in both skins; an unknown mix is 404', async () => {
    const dj = await signUpMember(t.app);
    const stranger = await signUpMember(t.app);
    const draft = await draftMix(t.services, dj);
    const published = await publishedMix(t.app, t.services, dj);

    const update = await rest('POST', '/api/mix/update-mix', stranger, { mix_id: draft, tracks: typedTracks(5) });
    expect(update.statusCode).toBe(403);
    expect(update.json().message).toBe('Only the owner of this mix may change it');
    expect((await rest('POST', '/api/mix/publish-mix', stranger, { mix_id: draft, code: 'free-mix' })).statusCode).toBe(403);
    expect((await rest('PATCH', `/api/user/deactivate-mix/${published}`, stranger)).statusCode).toBe(403);
    expect((await rest('GET', `/api/mix/upload/${draft}`, stranger)).statusCode).toBe(403);

    const asStranger = (query: string) => gql(t.app, query, { id: published }, stranger.token);
    expect((await asStranger(`mutation ($id: ID!) { deactivateMix(mixId: $id) }`)).errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await asStranger(`mutation ($id: ID!) { publishMix(mixId: $id, code: "free-mix") { id } }`)).errors?.[0].extensions?.code).toBe(
      'FORBIDDEN',
    );
    expect(
      (
        await asStranger(
          `mutation ($id: ID!) { setTracklist(mixId: $id, tracks: [${Array(5).fill('{ title: "x", creators: ["y"] }').join(',')}]) { position } }`,
        )
      ).errors?.[0].extensions?.code,
    ).toBe('FORBIDDEN');

    // Still there, unchanged.
    expect((await rest('GET', `/api/mix/public/${published}`)).json().current_mix.tracks).toHaveLength(5);

    const unknown = randomUUID();
    expect((await rest('PATCH', `/api/user/deactivate-mix/${unknown}`, dj)).statusCode).toBe(404);
    expect((await rest('PATCH', '/api/user/deactivate-mix/not-an-id', dj)).statusCode).toBe(404);
    expect((await rest('POST', '/api/mix/publish-mix', dj, { mix_id: unknown, code: 'free-mix' })).statusCode).toBe(404);
  });

  test('changing or reading a mix privately needs a sign-in', async () => {
    const dj = await signUpMember(t.app);
    const id = await publishedMix(t.app, t.services, dj);
    for (const [method, url] of [
      ['POST', '/api/mix/update-mix'],
      ['POST', '/api/mix/publish-mix'],
      ['PATCH', `/api/user/deactivate-mix/${id}`],
      ['GET', `/api/mix/${id}`],
      ['GET', `/api/mix/upload/${id}`],
    ] as const) {
      expect((await rest(method, url)).statusCode, url).toBe(401);
    }
    expect((await gql(t.app, `mutation ($id: ID!) { deactivateMix(mixId: $id) }`, { id })).errors?.[0].extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
  });
});

describe('reading mixes', () => {
  test('a mix by id tells the viewer whether they saved it, how far it is, and whether it is theirs', async () => {
    const dj = await signUpMember(t.app, CITIES.london);
    const fan = await signUpMember(t.app, CITIES.berlin);
    const id = await publishedMix(t.app, t.services, dj, { genre: 'techno', title: 'London Calling' });
    await rest('POST', `/api/user/save-mix/${id}`, fan);

    const seen = (await rest('GET', `/api/mix/${id}`, fan)).json();
    // Where it was made, as anyone sees it: the centre of the owner's ~2 km cell, not the point they gave.
    const [cell] = await t.services.orm.em
      .fork()
      .execute<{ latitude: number; longitude: number }[]>(
        'select geo_cell_latitude(?) as latitude, geo_cell_longitude(?, ?) as longitude',
        [CITIES.london.latitude, CITIES.london.latitude, CITIES.london.longitude],
      );
    expect(cell).not.toEqual(CITIES.london);
    expect(seen).toMatchObject({
      _id: id,
      title: 'London Calling',
      genre: 'techno',
      user: { _id: dj.id, user_name: dj.userName },
      location: { type: 'Point', coordinates: [cell.longitude, cell.latitude] },
      savedByMe: true,
      isOwner: false,
      is_new_upload: true,
      isNewUpload: true,
      ExpiringIn: A_YEAR,
      isExpired: false,
    });
    expect(seen.distance).toBeGreaterThan(925);
    expect(seen.distance).toBeLessThan(940);
    expect(seen.tracks).toHaveLength(5);
    expect(seen.cover).toMatch(/^\/media\/mix\/mix-images\/[0-9a-f]+\.jpg$/);
    expect(seen.mp3).toMatch(/^\/media\/mix\/mix-audio\/[0-9a-f]+\.mp3$/);

    // Who saved a mix is its owner's to see (saved_by, see docs/permissions.md#owners).
    expect(seen).not.toHaveProperty('saved_by');
    const own = (await rest('GET', `/api/mix/${id}`, dj)).json();
    expect(own).toMatchObject({ isOwner: true, savedByMe: false, distance: null, saved_by: [fan.id] });

    const query = `query ($id: ID!) { mix(id: $id) { id title savedByMe isOwner distanceKm owner { userName } tracks { position } } }`;
    const graph = await gql<{ mix: { savedByMe: boolean; isOwner: boolean; distanceKm: number; tracks: unknown[] } }>(
      t.app,
      query,
      { id },
      fan.token,
    );
    expect(graph.data?.mix).toMatchObject({ id, savedByMe: true, isOwner: false, owner: { userName: dj.userName } });
    expect(graph.data?.mix.distanceKm).toBeCloseTo(seen.distance, 6);
    const anonymous = await gql<{ mix: { savedByMe: boolean | null; isOwner: boolean } }>(t.app, query, { id });
    expect(anonymous.data?.mix).toMatchObject({ savedByMe: null, isOwner: false, distanceKm: null });

    // A card previews the first tracks only.
    const preview = await gql<{ mix: { tracks: { position: number }[] } }>(
      t.app,
      `query ($id: ID!) { mix(id: $id) { tracks(first: 2) { position } } }`,
      {
        id,
      },
    );
    expect(preview.data?.mix.tracks).toEqual([{ position: 1 }, { position: 2 }]);
    const tooFew = await gql(t.app, `query ($id: ID!) { mix(id: $id) { tracks(first: 0) { position } } }`, { id });
    expect(tooFew.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  test('the public mix needs no sign-in; missing, unpublished or deactivated mixes are 404 with mix_found false', async () => {
    const dj = await signUpMember(t.app);
    const id = await publishedMix(t.app, t.services, dj);
    const found = await rest('GET', `/api/mix/public/${id}`);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ mix_found: true, current_mix: { _id: id, savedByMe: null, distance: null } });

    const draft = await draftMix(t.services, dj);
    for (const missing of [randomUUID(), 'not-a-mix', draft]) {
      const response = await rest('GET', `/api/mix/public/${missing}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ mix_found: false, err: 'Mix not found' });
    }
    // Private reads answer the same way for a mix the viewer may not see.
    const stranger = await signUpMember(t.app);
    expect((await rest('GET', `/api/mix/${draft}`, stranger)).json()).toMatchObject({ mix_found: false });
  });

  test('the owner still sees their own draft and expired mix by id; nobody else does', async () => {
    const dj = await signUpMember(t.app);
    const stranger = await signUpMember(t.app);
    const draft = await draftMix(t.services, dj);
    expect((await rest('GET', `/api/mix/${draft}`, dj)).json()).toMatchObject({ _id: draft, status: 'draft', ExpiringIn: null });

    const old = await publishedMix(t.app, t.services, dj);
    await publishedDaysAgo(t.services, old, 400);
    const own = (await rest('GET', `/api/mix/${old}`, dj)).json();
    expect(own).toMatchObject({ _id: old, isExpired: true, ExpiringIn: 0, isNewUpload: false });
    expect((await rest('GET', `/api/mix/${old}`, stranger)).statusCode).toBe(404);
    expect((await rest('GET', `/api/mix/public/${old}`)).statusCode).toBe(404);
    const graph = await gql<{ mix: { isExpired: boolean } | null }>(
      t.app,
      `query ($id: ID!) { mix(id: $id) { isExpired } }`,
      { id: old },
      stranger.token,
    );
    expect(graph.data?.mix).toBeNull();
  });

  test('the payment step reads the owner’s draft; a published mix is a 409 there', async () => {
    const dj = await signUpMember(t.app);
    const draft = await draftMix(t.services, dj, { title: 'For Sale' });
    const response = await rest('GET', `/api/mix/upload/${draft}`, dj);
    expect(response.statusCode).toBe(200);
    expect(response.json().current_mix).toMatchObject({ _id: draft, title: 'For Sale', status: 'draft', tracks: [] });
    const published = await publishedMix(t.app, t.services, dj);
    expect((await rest('GET', `/api/mix/upload/${published}`, dj)).statusCode).toBe(409);
  });

  test('isNewUpload lasts 7 days; ExpiringIn counts the days of hosting left', async () => {
    const dj = await signUpMember(t.app);
    const id = await publishedMix(t.app, t.services, dj);
    await publishedDaysAgo(t.services, id, 6);
    expect((await rest('GET', `/api/mix/public/${id}`)).json().current_mix).toMatchObject({ isNewUpload: true, ExpiringIn: A_YEAR - 6 });
    await publishedDaysAgo(t.services, id, 2);
    expect((await rest('GET', `/api/mix/public/${id}`)).json().current_mix).toMatchObject({
      isNewUpload: false,
      is_new_upload: false,
      ExpiringIn: A_YEAR - 8,
    });
  });

  test('mixes by member: newest first, 20 a page with the count, mix_id_to_exclude; GraphQL pages by cursor', async () => {
    const dj = await signUpMember(t.app, CITIES.paris);
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) ids.push(await publishedMix(t.app, t.services, dj, { title: `Set ${i}` }));
    await draftMix(t.services, dj);
    const expired = await publishedMix(t.app, t.services, dj, { title: 'Old set' });
    await publishedDaysAgo(t.services, expired, 366);
    const newestFirst = [...ids].reverse();

    const fan = await signUpMember(t.app, CITIES.london);
    const first = (await rest('GET', `/api/mix/by-user/${dj.userName}/0`, fan)).json();
    expect(first.count).toBe(22);
    expect(first.mixes.map((mix: { _id: string }) => mix._id)).toEqual(newestFirst.slice(0, 20));
    expect(first.mixes[0].distance).toBeGreaterThan(300);
    const second = (await rest('GET', `/api/mix/by-user/${dj.userName.toUpperCase()}/1`)).json();
    expect(second.mixes.map((mix: { _id: string }) => mix._id)).toEqual(newestFirst.slice(20));
    const excluding = (await rest('GET', `/api/mix/by-user/${dj.userName}/0?mix_id_to_exclude=${newestFirst[0]}`)).json();
    expect(excluding.count).toBe(21);
    expect(excluding.mixes[0]._id).toBe(newestFirst[1]);
    // The member themself also sees their expired mix.
    expect((await rest('GET', `/api/mix/by-user/${dj.userName}/0`, dj)).json().count).toBe(23);
    expect((await rest('GET', '/api/mix/by-user/nobody-here/0')).statusCode).toBe(404);
    expect((await rest('GET', `/api/mix/by-user/${dj.userName}/-1`)).statusCode).toBe(400);

    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof gql<{ mixesByUser: MixPage }>>> = await gql<{ mixesByUser: MixPage }>(
        t.app,
        `query ($name: String!, $after: String) { mixesByUser(userName: $name, first: 8, after: $after) {
           totalCount pageInfo { hasNextPage endCursor } edges { node { id } } } }`,
        { name: dj.userName, after },
      );
      expect(page.data?.mixesByUser.totalCount).toBe(22);
      seen.push(...(page.data?.mixesByUser.edges.map((edge) => edge.node.id) ?? []));
      after = page.data?.mixesByUser.pageInfo.hasNextPage ? page.data.mixesByUser.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual(newestFirst);
  });
});

interface MixPage {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: { node: { id: string } }[];
}

describe('deactivation', () => {
  test('the owner’s deactivation removes the mix from every list and page at once', async () => {
    const dj = await signUpMember(t.app, CITIES.berlin);
    const fan = await signUpMember(t.app, CITIES.berlin);
    const id = await publishedMix(t.app, t.services, dj, { genre: 'garage' });
    await rest('POST', `/api/user/save-mix/${id}`, fan);
    await rest('POST', '/api/user/save-current-mix', fan, { current_mix: id, current_mix_pos: 42 });

    const feed = () =>
      rest('POST', '/api/mix/get-mixes-by-genre-and-distance', fan, { genre: 'garage', search_radius: 20000 }).then((r) => r.json());
    expect((await feed()).data.map((mix: { _id: string }) => mix._id)).toContain(id);
    expect((await rest('GET', '/api/user/logged-in-user', fan)).json()).toMatchObject({ saved_mixes_by_me: [id], current_mix: id });

    const response = await rest('PATCH', `/api/user/deactivate-mix/${id}`, dj);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Mix deactivated', _id: id });

    expect((await feed()).data.map((mix: { _id: string }) => mix._id)).not.toContain(id);
    expect((await rest('GET', `/api/mix/by-user/${dj.userName}/0`, fan)).json()).toEqual({ mixes: [], count: 0 });
    expect((await rest('GET', `/api/mix/by-user/${dj.userName}/0`, dj)).json().count).toBe(0);
    expect((await rest('GET', '/api/user/saved-mixes-by-me', fan)).json()).toEqual({ saved_mixes_by_me: [], count: 0 });
    expect((await rest('GET', `/api/mix/public/${id}`)).statusCode).toBe(404);
    expect((await rest('GET', `/api/mix/${id}`, fan)).statusCode).toBe(404);
    expect((await rest('GET', `/api/mix/${id}`, dj)).statusCode).toBe(404);
    expect((await rest('GET', '/api/user/logged-in-user', fan)).json()).toMatchObject({
      saved_mixes_by_me: [],
      current_mix: null,
      current_mix_pos: 0,
    });
    // Gone for the owner too: deactivating again, or changing it, finds nothing.
    expect((await rest('PATCH', `/api/user/deactivate-mix/${id}`, dj)).statusCode).toBe(404);
    expect((await rest('POST', '/api/mix/update-mix', dj, { mix_id: id, tracks: typedTracks(5) })).statusCode).toBe(404);
  });

  test('GraphQL deactivateMix: the mix leaves the feed, the member’s mixes, the library and mix(id)', async () => {
    const dj = await signUpMember(t.app, CITIES.sydney);
    const fan = await signUpMember(t.app, CITIES.sydney);
    const id = await publishedMix(t.app, t.services, dj, { genre: 'leftfield' });
    await gql(t.app, `mutation ($id: ID!) { saveMix(mixId: $id) { id } }`, { id }, fan.token);
    const read = () =>
      gql<{
        feed: { edges: { node: { id: string } }[] };
        mixesByUser: { totalCount: number };
        mix: { id: string } | null;
        me: { savedMixes: { totalCount: number } };
      }>(
        t.app,
        `query ($id: ID!, $name: String!) {
           feed(genre: LEFTFIELD) { edges { node { id } } }
           mixesByUser(userName: $name) { totalCount }
           mix(id: $id) { id }
           me { savedMixes { totalCount } } }`,
        { id, name: dj.userName },
        fan.token,
      );
    const before = await read();
    expect(before.data).toMatchObject({ mixesByUser: { totalCount: 1 }, mix: { id }, me: { savedMixes: { totalCount: 1 } } });
    expect(before.data?.feed.edges.map((edge) => edge.node.id)).toContain(id);

    expect((await gql(t.app, `mutation ($id: ID!) { deactivateMix(mixId: $id) }`, { id }, dj.token)).data).toEqual({ deactivateMix: true });
    const after = await read();
    expect(after.data).toMatchObject({
      feed: { edges: [] },
      mixesByUser: { totalCount: 0 },
      mix: null,
      me: { savedMixes: { totalCount: 0 } },
    });
  });
});
