import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { CITIES, draftMix, publishedDaysAgo, publishedMix, statementsDuring } from './support/mixes.js';

let t: TestApp;
let fan: Member;
/** Published in this order (so newest last), one per city and genre. */
const mixes = {} as Record<'berlinTechno' | 'londonTechno' | 'londonHouse' | 'parisHouse' | 'newYorkTechno' | 'sydneyHouse', string>;

beforeAll(async () => {
  t = await createTestApp();
  const djs = {
    berlin: await signUpMember(t.app, CITIES.berlin),
    london: await signUpMember(t.app, CITIES.london),
    paris: await signUpMember(t.app, CITIES.paris),
    newYork: await signUpMember(t.app, CITIES.newYork),
    sydney: await signUpMember(t.app, CITIES.sydney),
  };
  mixes.berlinTechno = await publishedMix(t.app, t.services, djs.berlin, { genre: 'techno' });
  mixes.londonTechno = await publishedMix(t.app, t.services, djs.london, { genre: 'techno' });
  mixes.londonHouse = await publishedMix(t.app, t.services, djs.london, { genre: 'house' });
  mixes.parisHouse = await publishedMix(t.app, t.services, djs.paris, { genre: 'house' });
  mixes.newYorkTechno = await publishedMix(t.app, t.services, djs.newYork, { genre: 'techno' });
  mixes.sydneyHouse = await publishedMix(t.app, t.services, djs.sydney, { genre: 'house' });
  // Never in the feed: a draft, an expired mix, a deactivated one.
  await draftMix(t.services, djs.berlin, { genre: 'techno' });
  await publishedDaysAgo(t.services, await publishedMix(t.app, t.services, djs.london, { genre: 'techno' }), 366);
  const removed = await publishedMix(t.app, t.services, djs.berlin, { genre: 'house' });
  await t.app.inject({ method: 'PATCH', url: `/api/user/deactivate-mix/${removed}`, headers: { 'x-auth-token': djs.berlin.token } });
  fan = await signUpMember(t.app, CITIES.berlin);
});
afterAll(() => t.close());

interface WireMix {
  _id: string;
  distance: number | null;
  savedByMe: boolean | null;
}

interface PlanNode {
  'Relation Name'?: string;
  'Actual Loops': number;
  Plans?: PlanNode[];
}
/** How many times a plan, as run (EXPLAIN ANALYZE), scanned the table. */
const loopsOver = (node: PlanNode, table: string): number =>
  (node['Relation Name'] === table ? node['Actual Loops'] : 0) +
  (node.Plans ?? []).reduce((sum, child) => sum + loopsOver(child, table), 0);

async function restFeed(payload: Record<string, unknown>, member: Member | null = fan) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/mix/get-mixes-by-genre-and-distance',
    headers: member ? { 'x-auth-token': member.token } : {},
    payload,
  });
  return { status: response.statusCode, body: response.json() as { data: WireMix[]; count: number; message?: string } };
}
const idsOf = (data: WireMix[]) => data.map((mix) => mix._id);

interface FeedPage {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: { cursor: string; node: { id: string; distanceKm: number | null } }[];
}
async function graphFeed(variables: Record<string, unknown>, member: Member | null = fan) {
  return gql<{ feed: FeedPage }>(
    t.app,
    `query ($genre: Genre, $radiusKm: Float, $from: LocationInput, $first: Int, $after: String) {
       feed(genre: $genre, radiusKm: $radiusKm, from: $from, first: $first, after: $after) {
         totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id distanceKm } } } }`,
    variables,
    member?.token,
  );
}

describe('the feed by genre', () => {
  test('one genre: only its published, active, unexpired mixes, newest first, each with its distance (both skins)', async () => {
    const { body } = await restFeed({ genre: 'techno', search_radius: 20000 });
    expect(idsOf(body.data)).toEqual([mixes.newYorkTechno, mixes.londonTechno, mixes.berlinTechno]);
    expect(body.count).toBe(3);
    const [newYork, london, berlin] = body.data.map((mix) => mix.distance ?? -1);
    expect(berlin).toBeCloseTo(0, 3);
    expect(london).toBeGreaterThan(925);
    expect(london).toBeLessThan(940);
    expect(newYork).toBeGreaterThan(6300);
    expect(newYork).toBeLessThan(6450);

    const graph = await graphFeed({ genre: 'TECHNO' });
    expect(graph.data?.feed.totalCount).toBe(3);
    expect(graph.data?.feed.edges.map((edge) => [edge.node.id, edge.node.distanceKm])).toEqual(
      body.data.map((mix) => [mix._id, mix.distance]),
    );
  });

  test('all genres (the default) lists every visible mix', async () => {
    const all = [mixes.sydneyHouse, mixes.newYorkTechno, mixes.parisHouse, mixes.londonHouse, mixes.londonTechno, mixes.berlinTechno];
    expect(idsOf((await restFeed({ genre: 'all', search_radius: 20000 })).body.data)).toEqual(all);
    expect(idsOf((await restFeed({})).body.data)).toEqual(all);
    expect((await graphFeed({})).data?.feed.edges.map((edge) => edge.node.id)).toEqual(all);
  });
});

describe('the feed by distance', () => {
  test('Berlin to London is about 930 km: a 900 km radius leaves London out, 1,000 km takes it in (both skins)', async () => {
    const berlin = { latitude: 52.52, longitude: 13.405 };
    const within900 = await restFeed({ genre: 'all', search_radius: 900, from_point: berlin });
    // Paris is 878 km from Berlin.
    expect(idsOf(within900.body.data)).toEqual([mixes.parisHouse, mixes.berlinTechno]);
    expect(within900.body.count).toBe(2);
    const within1000 = await restFeed({ genre: 'all', search_radius: 1000, from_point: berlin });
    expect(idsOf(within1000.body.data)).toEqual([mixes.parisHouse, mixes.londonHouse, mixes.londonTechno, mixes.berlinTechno]);
    expect(within1000.body.count).toBe(4);
    expect(idsOf((await restFeed({ genre: 'techno', search_radius: 900, from_point: berlin })).body.data)).toEqual([mixes.berlinTechno]);
    expect(idsOf((await restFeed({ genre: 'techno', search_radius: 1000, from_point: berlin })).body.data)).toEqual([
      mixes.londonTechno,
      mixes.berlinTechno,
    ]);

    const graph900 = await graphFeed({ radiusKm: 900, from: berlin, genre: 'TECHNO' });
    expect(graph900.data?.feed.edges.map((edge) => edge.node.id)).toEqual([mixes.berlinTechno]);
    const graph1000 = await graphFeed({ radiusKm: 1000, from: berlin });
    expect(graph1000.data?.feed.totalCount).toBe(4);
    expect(graph1000.data?.feed.edges.map((edge) => edge.node.id)).toContain(mixes.londonTechno);
  });

  test('the point defaults to the viewer’s stored location; from_point overrides it', async () => {
    expect(idsOf((await restFeed({ genre: 'all', search_radius: 100 })).body.data)).toEqual([mixes.berlinTechno]);
    const fromSydney = await restFeed({ genre: 'all', search_radius: 100, from_point: CITIES.sydney });
    expect(idsOf(fromSydney.body.data)).toEqual([mixes.sydneyHouse]);
    // The mix keeps only the centre of its owner's ~2 km cell, 0.9 km from the point asked from: a whole 1 km.
    expect(fromSydney.body.data[0].distance).toBe(1);
    expect((await graphFeed({ radiusKm: 100 })).data?.feed.edges.map((edge) => edge.node.id)).toEqual([mixes.berlinTechno]);
  });

  test('with no location anywhere: the maximum radius means everywhere (no distances); a smaller one is a clear 400', async () => {
    const nomad = await signUpMember(t.app);
    const everywhere = await restFeed({ genre: 'house', search_radius: 20000 }, nomad);
    expect(idsOf(everywhere.body.data)).toEqual([mixes.sydneyHouse, mixes.parisHouse, mixes.londonHouse]);
    expect(everywhere.body.data.map((mix) => mix.distance)).toEqual([null, null, null]);
    const near = await restFeed({ genre: 'house', search_radius: 500 }, nomad);
    expect(near.status).toBe(400);
    expect(near.body.message).toBe('To filter by distance, share your location or send from_point {latitude, longitude}');
    // Signed out works the same way over GraphQL.
    expect((await graphFeed({ genre: 'HOUSE' }, null)).data?.feed.totalCount).toBe(3);
    expect((await graphFeed({ radiusKm: 50 }, null)).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  test('bad input is a 400 that says what is wrong', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ genre: 'polka' }, 'Unknown genre; use all or one of:'],
      [{ search_radius: -1 }, 'search_radius must be a number of km from 0 to 20,000'],
      [{ search_radius: 20001 }, 'search_radius must be a number of km from 0 to 20,000'],
      [{ search_radius: 'far' }, 'search_radius must be a number of km from 0 to 20,000'],
      [{ search_radius: 10, from_point: { latitude: 91, longitude: 0 } }, 'latitude must be between -90 and 90'],
      [{ limit: 500 }, 'first must be a whole number from 1 to 50'],
    ];
    for (const [payload, message] of cases) {
      const response = await restFeed(payload);
      expect(response.status, JSON.stringify(payload)).toBe(400);
      expect(response.body.message).toContain(message);
    }
    expect((await graphFeed({ radiusKm: 30000 })).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((await graphFeed({ after: 'bm90LWEtY3Vyc29y' })).errors?.[0].message).toBe('Invalid cursor: pass a cursor of an earlier page');
  });
});

describe('paging', () => {
  test('GraphQL cursors walk every match once, newest first; REST pages by page and limit', async () => {
    const everything = idsOf((await restFeed({ genre: 'all' })).body.data);
    for (const variables of [{}, { radiusKm: 1000 }, { genre: 'HOUSE' }, { genre: 'HOUSE', radiusKm: 20000, from: CITIES.london }]) {
      const seen: string[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const page: FeedPage | undefined = (await graphFeed({ ...variables, first: 2, after })).data?.feed;
        seen.push(...(page?.edges.map((edge) => edge.node.id) ?? []));
        after = page?.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
        pages += 1;
      } while (after);
      const whole = (await graphFeed({ ...variables, first: 50 })).data?.feed;
      expect(seen, JSON.stringify(variables)).toEqual(whole?.edges.map((edge) => edge.node.id));
      expect(pages).toBe(Math.max(1, Math.ceil(seen.length / 2)));
      expect(whole?.totalCount).toBe(seen.length);
    }
    const second = await restFeed({ genre: 'all', page: 1, limit: 2 });
    expect(idsOf(second.body.data)).toEqual(everything.slice(2, 4));
    expect(second.body.count).toBe(6);
  });
});

describe('counting', () => {
  test('the count follows publishing, deactivation and expiry, to the hour', async () => {
    const dj = await signUpMember(t.app, CITIES.paris);
    const count = async () => (await restFeed({ genre: 'electronica' })).body.count;
    expect(await count()).toBe(0);
    const first = await publishedMix(t.app, t.services, dj, { genre: 'electronica' });
    const second = await publishedMix(t.app, t.services, dj, { genre: 'electronica' });
    expect(await count()).toBe(2);
    await t.app.inject({ method: 'PATCH', url: `/api/user/deactivate-mix/${first}`, headers: { 'x-auth-token': dj.token } });
    expect(await count()).toBe(1);
    const em = t.services.orm.em.fork();
    // Hosting that ends later today still counts; once it has ended, it does not.
    await em.execute(`update mix set expires_at = now() + interval '1 minute' where id = ?`, [second]);
    expect(await count()).toBe(1);
    await em.execute(`update mix set expires_at = now() - interval '1 second' where id = ?`, [second]);
    expect(await count()).toBe(0);
    await em.execute(`update mix set expires_at = now() + interval '400 days' where id = ?`, [second]);
    expect(await count()).toBe(1);
    expect((await graphFeed({ genre: 'ELECTRONICA' })).data?.feed.totalCount).toBe(1);
  });
});

describe('served without N+1', () => {
  test('a feed page costs at most 2 SQL statements, for 2 mixes as for 20, in both skins', async () => {
    const dj = await signUpMember(t.app, CITIES.london);
    for (let i = 0; i < 21; i++) await publishedMix(t.app, t.services, dj, { genre: 'edm' });
    const saver = await signUpMember(t.app, CITIES.berlin);
    const [firstMix] = (await restFeed({ genre: 'edm', search_radius: 20000, limit: 1 }, saver)).body.data;
    await t.app.inject({ method: 'POST', url: `/api/user/save-mix/${firstMix._id}`, headers: { 'x-auth-token': saver.token } });
    const query = `query ($first: Int!, $genre: Genre!, $radiusKm: Float!) {
      feed(genre: $genre, radiusKm: $radiusKm, first: $first) {
        totalCount pageInfo { endCursor } edges { node {
          id title coverUrl distanceKm isNewUpload savedByMe owner { userName imageUrl } tracks { position track { title creators { name } } }
        } } } }`;
    for (const filter of [
      { genre: 'EDM', radiusKm: 20000 },
      { genre: 'EDM', radiusKm: 1000 },
      { genre: 'ALL', radiusKm: 1000 },
      { genre: 'ALL', radiusKm: 20 },
    ]) {
      const sizes = new Map<number, number>();
      for (const first of [2, 20]) {
        let result:
          | Awaited<ReturnType<typeof gql<{ feed: { edges: { node: { id: string; savedByMe: boolean | null; tracks: unknown[] } }[] } }>>>
          | undefined;
        const statements = await statementsDuring(t.services, async () => {
          result = await gql(t.app, query, { first, ...filter }, saver.token);
        });
        expect(result?.errors).toBeUndefined();
        const edges = result?.data?.feed.edges ?? [];
        if (filter.radiusKm === 20) {
          // Too few mixes within 20 km of Berlin for the walk to fill a page: the box answers, in the same statement.
          expect(edges.length).toBeGreaterThan(0);
          expect(edges.length).toBeLessThan(first);
        } else {
          expect(edges).toHaveLength(first);
          expect(edges.every((edge) => edge.node.tracks.length === 5)).toBe(true);
          expect(edges.map((edge) => edge.node.savedByMe)).toEqual(edges.map((edge) => edge.node.id === firstMix._id));
        }
        sizes.set(first, statements.length);
      }
      expect(sizes.get(20), JSON.stringify(filter)).toBe(sizes.get(2));
      // The page with its count, the viewer's location (no point given) and saved marks; the cards' tracks. The sign-in
      // check is remembered from the first request.
      expect(sizes.get(20), JSON.stringify(filter)).toBeLessThanOrEqual(2);
    }

    const restSizes: number[] = [];
    for (const limit of [2, 20]) {
      const statements = await statementsDuring(t.services, async () => {
        const { body } = await restFeed({ genre: 'edm', search_radius: 20000, limit }, saver);
        expect(body.data).toHaveLength(limit);
        expect(body.data.map((mix) => mix.savedByMe)).toEqual(body.data.map((mix) => mix._id === firstMix._id));
      });
      restSizes.push(statements.length);
    }
    expect(restSizes[1]).toBe(restSizes[0]);
    expect(restSizes[1]).toBeLessThanOrEqual(2);
  });

  test('counts and pages are served from the feed’s indexes', async () => {
    // Enough mixes for the planner to prefer indexes: 3,000 around Europe, all genres.
    const em = t.services.orm.em.fork();
    const [{ id: ownerId }] = await em.execute<{ id: string }[]>('select id from app_user limit 1');
    await em.execute(
      `insert into mix (id, owner_id, title, genre, cover, mp3, latitude, longitude, status, published_at, expires_at, created_at, updated_at)
       select gen_random_uuid(), ?, 'bulk ' || i,
              (array['house','techno','garage','edm','afro_house'])[1 + i % 5], md5(i::text) || '.jpg', md5(i::text) || '.mp3',
              40 + (i % 200) / 10.0, -5 + (i % 300) / 10.0, 'published',
              now() - i * interval '1 minute', now() - i * interval '1 minute' + interval '1 year', now(), now()
         from generate_series(1, 3000) i`,
      [ownerId],
    );
    await em.execute('vacuum analyze mix');
    const plans: string[] = [];
    /** The most times one statement read `app_user`: the owners of a page's cards (and the viewer's location), at most. */
    let appUserReads = 0;
    for (const payload of [
      { genre: 'all', search_radius: 20000 },
      { genre: 'garage', search_radius: 20000 },
      { genre: 'garage', search_radius: 300 },
      { genre: 'all', search_radius: 300 },
      { genre: 'all', search_radius: 10, from_point: { latitude: -60, longitude: -120 } },
    ]) {
      const statements = await statementsDuring(t.services, () => restFeed(payload));
      for (const statement of statements.filter((sql) => /\bfrom mix\b|mix_feed_tally/.test(sql) && !/^select "m0"/.test(sql))) {
        const rows = await em.execute<{ 'QUERY PLAN': string }[]>(`explain ${statement}`);
        plans.push(`${JSON.stringify(payload)}\n${rows.map((row) => row['QUERY PLAN']).join('\n')}`);
        const [analyzed] = await em.execute<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`explain (analyze, format json) ${statement}`);
        appUserReads = Math.max(appUserReads, loopsOver(analyzed['QUERY PLAN'][0].Plan, 'app_user'));
      }
    }
    const all = plans.join('\n\n');
    expect(all).not.toMatch(/Seq Scan on mix\b/);
    // Whether a mix's owner is suspended is read from the mix's own row: no probe of app_user per mix walked or
    // counted (3,000 here), only the owners of the page's cards (20, and one more to tell whether more follow) and the
    // viewer's stored location.
    expect(appUserReads).toBeGreaterThan(0);
    expect(appUserReads).toBeLessThanOrEqual(21 + 1);
    // The indexes carry what visibility reads (expiry, the hold, the owner's suspension): walks and counts never
    // visit the mixes' rows.
    expect(all).toContain('Index Only Scan using mix_visible_recent_idx');
    expect(all).toContain('Index Only Scan using mix_visible_geo_idx');
    expect(all).toContain('Index Only Scan using mix_visible_genre_idx');
    // Everywhere: the tally, and an index range for the mixes whose hosting ends today.
    expect(plans[0]).toContain('mix_feed_tally');
    expect(plans[0]).toContain('mix_visible_expiry_idx');
    // All genres within a radius: the GiST index counts; one genre: that genre's index.
    expect(plans.filter((plan) => plan.startsWith('{"genre":"all","search_radius":300}')).join('\n')).toContain('mix_visible_geo_idx');
    expect(plans.filter((plan) => plan.startsWith('{"genre":"garage","search_radius":300}')).join('\n')).toContain('mix_visible_genre_idx');
    // Pages walk the newest-first index; a sparse circle falls back to the GiST index.
    expect(all).toContain('mix_visible_recent_idx');
    expect(
      plans
        .filter((plan) => plan.includes('"latitude":-60'))
        .join('\n')
        .match(/mix_visible_geo_idx/g)?.length,
    ).toBe(2);
  });
});

describe('totals of wide circles', () => {
  test('a radius total is exact up to 10,000 and a stated lower bound beyond; everywhere it stays exact (both skins)', async () => {
    const em = t.services.orm.em.fork();
    const [{ id: ownerId }] = await em.execute<{ id: string }[]>('select id from app_user limit 1');
    const visible = async () =>
      Number(
        (
          await em.execute<{ n: string }[]>(
            `select count(*) n from mix where status = 'published' and deactivated_at is null and expires_at > now()`,
          )
        )[0]?.n,
      );
    const before = await visible();
    await em.execute(
      `insert into mix (id, owner_id, title, genre, cover, mp3, latitude, longitude, status, published_at, expires_at, created_at, updated_at)
       select gen_random_uuid(), ?, 'wide ' || i, 'techno', md5('w' || i) || '.jpg', md5('w' || i) || '.mp3',
              48 + (i % 100) / 10.0, 5 + (i % 150) / 10.0, 'published',
              now() - i * interval '1 second', now() - i * interval '1 second' + interval '1 year', now(), now()
         from generate_series(1, 10500) i`,
      [ownerId],
    );
    await em.execute('vacuum analyze mix');
    const everywhere = await visible();
    expect(everywhere - before).toBe(10500);
    const wide = {
      genre: 'all',
      search_radius: 5000,
      from_point: { latitude: CITIES.berlin.latitude, longitude: CITIES.berlin.longitude },
    };
    const rest = await restFeed(wide);
    expect(rest.body).toMatchObject({ count: 10_000, count_is_lower_bound: true });
    const oneGenre = await restFeed({ ...wide, genre: 'techno' });
    expect(oneGenre.body).toMatchObject({ count: 10_000, count_is_lower_bound: true });
    const graph = await gql<{ feed: { totalCount: number; totalCountIsLowerBound: boolean } }>(
      t.app,
      `query ($from: LocationInput) { feed(genre: ALL, radiusKm: 5000, from: $from) { totalCount totalCountIsLowerBound } }`,
      { from: wide.from_point },
    );
    expect(graph.data?.feed).toEqual({ totalCount: 10_000, totalCountIsLowerBound: true });
    // A narrow circle holding fewer is counted exactly; everywhere is the exact tally.
    const narrow = await restFeed({ ...wide, search_radius: 10, from_point: { latitude: -60, longitude: -120 } });
    expect(narrow.body).toMatchObject({ count: 0, count_is_lower_bound: false });
    expect((await restFeed({ genre: 'all', search_radius: 20000 })).body).toMatchObject({ count: everywhere, count_is_lower_bound: false });
    await em.execute(`delete from mix where title like 'wide %'`);
  });
});

// Last: it publishes a mix of its own, which would change the counts the tests above expect.
describe('distances are the viewer’s', () => {
  test('the owner’s own mix shows no distance in the feed; anyone else sees it (both skins, every plan)', async () => {
    const dj = await signUpMember(t.app, CITIES.paris);
    const own = await publishedMix(t.app, t.services, dj, { genre: 'leftfield' });
    for (const filter of [{}, { genre: 'leftfield' }, { search_radius: 5000 }, { genre: 'leftfield', search_radius: 5000 }]) {
      const mine = (await restFeed(filter, dj)).body.data.find((mix) => mix._id === own);
      const theirs = (await restFeed(filter, fan)).body.data.find((mix) => mix._id === own);
      expect(mine?.distance, JSON.stringify(filter)).toBeNull();
      expect(theirs?.distance, JSON.stringify(filter)).toBeCloseTo(878, -1);
    }
    const graph = async (member: Member) =>
      (await graphFeed({ genre: 'LEFTFIELD', radiusKm: 5000 }, member)).data?.feed.edges.find((edge) => edge.node.id === own)?.node
        .distanceKm;
    expect(await graph(dj)).toBeNull();
    expect(await graph(fan)).toBeCloseTo(878, -1);
  });
});
