import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import { openOrm } from '../src/db/orm.js';
import {
  createTestApp,
  createTestDatabase,
  dropTestDatabase,
  freshIp,
  gql,
  type Member,
  signUpMember,
  type TestApp,
} from './support/app.js';
import { publishedMix } from './support/mixes.js';

/**
 * Issue 26: where a member lives must not be recoverable from anything others can observe. Each target below is
 * observed the way a curious neighbour with several accounts would: profiles, follow lists, the mix and its owner,
 * the feed's distances from many points, and the feed's radius filter probed to the centimetre from several points.
 */

interface Point {
  latitude: number;
  longitude: number;
}

/** earthdistance's sphere (its earth() radius), so distances here agree with PostgreSQL's to the millimetre. */
const EARTH_KM = 6378.168;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

function kmBetween(a: Point, b: Point): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLng = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The point `northKm` north and `eastKm` east of `from` (small offsets). */
const moved = (from: Point, northKm: number, eastKm: number): Point => ({
  latitude: from.latitude + northKm / (EARTH_KM * radians(1)),
  longitude: from.longitude + eastKm / (EARTH_KM * radians(1) * Math.cos(radians(from.latitude))),
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Cell {
  centre: Point;
  /** Half the cell's height and width, in degrees. */
  halfLatitude: number;
  halfLongitude: number;
}

/** The cell holding a point, as the database draws it (the row's width is the migration's rule, restated). */
async function cellOf(point: Point): Promise<Cell> {
  const [row] = await t.services.orm.em.fork().execute<{ latitude: number; longitude: number; half: number }[]>(
    `select geo_cell_latitude(?) as latitude, geo_cell_longitude(?, ?) as longitude,
            180 / greatest(1, floor(360 * cos(radians(geo_cell_latitude(?))) / 0.018)) as half`,
    [point.latitude, point.latitude, point.longitude, point.latitude],
  );
  return { centre: { latitude: row.latitude, longitude: row.longitude }, halfLatitude: 0.009, halfLongitude: row.half };
}

/** Degrees as stored: seven decimals. */
const stored = (degrees: number) => Math.round(degrees * 1e7) / 1e7;

/** A place inside `cell`: `north` and `east` from -1 (the south or west edge) to 1 (the north or east edge). */
const inside = (cell: Cell, north: number, east: number): Point => ({
  latitude: stored(cell.centre.latitude + north * cell.halfLatitude),
  longitude: stored(cell.centre.longitude + east * cell.halfLongitude),
});

const restGet = (url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? { 'x-auth-token': token } : {}, remoteAddress: freshIp() });

const feedQuery = `query ($from: LocationInput, $radiusKm: Float, $genre: Genre) {
  feed(from: $from, radiusKm: $radiusKm, genre: $genre, first: 50) { edges { node { id distanceKm location { latitude longitude } } } } }`;

interface Target {
  member: Member;
  mixId: string;
}

interface Neighbourhood {
  /** Members placed around the targets, each following every target. */
  viewers: Member[];
  /** Points the feed is asked from (any caller may name any point). */
  feedPoints: Point[];
  /** Points from which the radius filter is probed to its edge. */
  probePoints: Point[];
}

/** The smallest radius (km, to a centimetre) at which the feed from `from` lists the mix. */
async function radiusEdge(from: Point, mixId: string): Promise<number> {
  let low = 0;
  let high = 20;
  while (high - low > 1e-5) {
    const middle = (low + high) / 2;
    const answer = await gql<{ feed: { edges: { node: { id: string } }[] } }>(t.app, feedQuery, {
      from,
      radiusKm: middle,
      genre: 'GARAGE',
    });
    if (answer.data?.feed.edges.some((edge) => edge.node.id === mixId)) high = middle;
    else low = middle;
  }
  return high;
}

interface Observations {
  /** Everything observed, by what was asked, with nothing that names the target (ids, names, dates). */
  seen: Record<string, unknown>;
  /** Every distance answered, to check they are whole kilometres. */
  distances: number[];
  /** Distances with the point each was measured from, for an attacker's least squares. */
  ranges: { from: Point; km: number; exact: boolean }[];
}

/** All that anyone but the target can learn about where the target is. */
async function observe(target: Target, around: Neighbourhood): Promise<Observations> {
  const seen: Record<string, unknown> = {};
  const distances: number[] = [];
  const ranges: Observations['ranges'] = [];
  const note = (key: string, value: unknown) => {
    seen[key] = value;
  };
  const distance = (value: unknown) => {
    if (typeof value === 'number') distances.push(value);
    return value;
  };
  const { userName } = target.member;

  const anonymous = await gql<{ user: { location: Point | null } }>(
    t.app,
    `{ user(userName: "${userName}") { location { latitude longitude } } }`,
  );
  note('graphql user, anonymous', anonymous.data?.user.location);
  note('rest profile, anonymous', (await restGet(`/api/user/by-user-name/${userName}`)).json().location);
  const publicMix = (await restGet(`/api/mix/public/${target.mixId}`)).json().current_mix;
  note('rest public mix', publicMix.location);
  const anonymousMix = await gql<{ mix: { location: Point; owner: { location: Point } } }>(
    t.app,
    `{ mix(id: "${target.mixId}") { location { latitude longitude } owner { location { latitude longitude } } } }`,
  );
  note('graphql mix, anonymous', anonymousMix.data?.mix);

  for (const [index, viewer] of around.viewers.entries()) {
    const profile = await gql<{ user: { distanceKm: number; location: Point } }>(
      t.app,
      `{ user(userName: "${userName}") { distanceKm location { latitude longitude } } }`,
      {},
      viewer.token,
    );
    note(`graphql profile from viewer ${index}`, profile.data?.user);
    distance(profile.data?.user.distanceKm);
    const rest = (await restGet(`/api/user/by-user-name/${userName}`, viewer.token)).json();
    note(`rest profile from viewer ${index}`, [rest.location, distance(rest.distance)]);

    const following = (await restGet(`/api/user/get-following/${viewer.userName}/1`, viewer.token)).json() as {
      results: { user: { user_name: string; location: unknown }; distance: number }[];
    };
    const entry = following.results.find((result) => result.user.user_name === userName);
    expect(entry).toBeDefined();
    note(`rest following of viewer ${index}`, [entry?.user.location, distance(entry?.distance)]);
    const graphFollowing = await gql<{ following: { edges: { distanceKm: number; node: { userName: string; location: Point } }[] } }>(
      t.app,
      '{ following(first: 50) { edges { distanceKm node { userName location { latitude longitude } } } } }',
      {},
      viewer.token,
    );
    const edge = graphFollowing.data?.following.edges.find((candidate) => candidate.node.userName === userName);
    expect(edge).toBeDefined();
    note(`graphql following of viewer ${index}`, [edge?.node.location, distance(edge?.distanceKm)]);

    const mix = await gql<{ mix: { distanceKm: number; location: Point; owner: { location: Point; distanceKm: number } } }>(
      t.app,
      `{ mix(id: "${target.mixId}") { distanceKm location { latitude longitude } owner { location { latitude longitude } } } }`,
      {},
      viewer.token,
    );
    note(`graphql mix from viewer ${index}`, mix.data?.mix);
    distance(mix.data?.mix.distanceKm);
    const mixes = (await restGet(`/api/mix/by-user/${userName}/0`, viewer.token)).json() as {
      mixes: { location: unknown; distance: number }[];
    };
    expect(mixes.mixes).toHaveLength(1);
    note(
      `rest mixes of the target from viewer ${index}`,
      mixes.mixes.map((listed) => [listed.location, distance(listed.distance)]),
    );
    // The viewer's own feed, from their stored place, at a few radii.
    for (const radiusKm of [1, 2, 3, 5, 10]) {
      const own = await gql<{ feed: { edges: { node: { id: string; distanceKm: number } }[] } }>(
        t.app,
        feedQuery,
        { radiusKm, genre: 'GARAGE' },
        viewer.token,
      );
      const listed = own.data?.feed.edges.find((candidate) => candidate.node.id === target.mixId);
      note(`feed of viewer ${index} within ${radiusKm} km`, listed ? distance(listed.node.distanceKm) : 'absent');
    }
  }

  for (const [index, from] of around.feedPoints.entries()) {
    const page = await gql<{ feed: { edges: { node: { id: string; distanceKm: number; location: Point } }[] } }>(t.app, feedQuery, {
      from,
      radiusKm: 50,
      genre: 'GARAGE',
    });
    const listed = page.data?.feed.edges.find((candidate) => candidate.node.id === target.mixId)?.node;
    note(`feed from point ${index}`, [listed?.location, distance(listed?.distanceKm)]);
    if (typeof listed?.distanceKm === 'number') ranges.push({ from, km: listed.distanceKm, exact: false });
  }
  for (const [index, from] of around.probePoints.entries()) {
    const edge = await radiusEdge(from, target.mixId);
    note(`radius edge from point ${index}`, edge);
    ranges.push({ from, km: edge, exact: true });
  }
  return { seen, distances, ranges };
}

/**
 * The attacker's best estimate: the place that best explains every range (least squares; the probed radius edges
 * are precise, the whole-km distances count for less), found by a coarse-to-fine search.
 */
function leastSquares(ranges: Observations['ranges'], near: Point): Point {
  const cost = (point: Point) =>
    ranges.reduce((sum, range) => sum + ((kmBetween(point, range.from) - range.km) / (range.exact ? 0.001 : 0.5)) ** 2, 0);
  let best = near;
  for (const [spanKm, stepKm] of [
    [20, 0.2],
    [0.6, 0.01],
    [0.02, 0.0005],
  ]) {
    const centre = best;
    let bestCost = cost(best);
    for (let north = -spanKm; north <= spanKm; north += stepKm) {
      for (let east = -spanKm; east <= spanKm; east += stepKm) {
        const candidate = moved(centre, north, east);
        const candidateCost = cost(candidate);
        if (candidateCost < bestCost) {
          best = candidate;
          bestCost = candidateCost;
        }
      }
    }
  }
  return best;
}

describe('nobody can place a member closer than their ~2 km cell', () => {
  let berlin: Neighbourhood;
  let farNorth: Neighbourhood;
  let aroundOf: Record<keyof typeof targets, Neighbourhood>;
  let cell: Cell;
  const targets = {} as Record<'southWest' | 'northEast' | 'farNorthEdge', Target & { at: Point }>;
  const observations = {} as Record<keyof typeof targets, Observations>;

  beforeAll(async () => {
    // Two members in one cell of Berlin, at opposite corners (2.6 km apart), and one far north, by a cell's east edge.
    cell = await cellOf({ latitude: 52.52, longitude: 13.405 });
    const north = await cellOf({ latitude: 78.2232, longitude: 15.6267 });
    const places = {
      southWest: inside(cell, -0.95, -0.95),
      northEast: inside(cell, 0.95, 0.95),
      farNorthEdge: inside(north, 0.5, 0.98),
    };
    for (const [name, at] of Object.entries(places) as [keyof typeof targets, Point][]) {
      const member = await signUpMember(t.app, at);
      targets[name] = { member, at, mixId: await publishedMix(t.app, t.services, member, { genre: 'garage' }) };
    }

    // Around each place: viewers 0.3 to 9 km away in all directions (the first in the targets' own cell), each following
    // every target; points to ask the feed from, on rings of 2.5 and 9 km; points to probe its radius filter from.
    const rings = (centre: Point, radiusKm: number, count: number) =>
      Array.from({ length: count }, (_, index) =>
        moved(centre, radiusKm * Math.cos((2 * Math.PI * index) / count), radiusKm * Math.sin((2 * Math.PI * index) / count)),
      );
    const neighbourhood = async (centre: Point): Promise<Neighbourhood> => {
      const viewers: Member[] = [];
      for (const [n, e] of [
        [0.3, 0.2],
        [3, 0],
        [0, 4],
        [-5, 1],
        [-1, -6],
        [6, 6],
        [-8, 4],
      ]) {
        const viewer = await signUpMember(t.app, moved(centre, n, e));
        for (const target of Object.values(targets)) {
          const followed = await t.app.inject({
            method: 'POST',
            url: `/api/user/follow/${target.member.id}`,
            headers: { 'x-auth-token': viewer.token },
          });
          expect(followed.statusCode).toBe(200);
        }
        viewers.push(viewer);
      }
      return { viewers, feedPoints: [...rings(centre, 2.5, 8), ...rings(centre, 9, 4)], probePoints: rings(centre, 4, 4) };
    };
    berlin = await neighbourhood(places.southWest);
    farNorth = await neighbourhood(places.farNorthEdge);
    aroundOf = { southWest: berlin, northEast: berlin, farNorthEdge: farNorth };
    for (const name of Object.keys(targets) as (keyof typeof targets)[]) observations[name] = await observe(targets[name], aroundOf[name]);
  }, 600_000);

  test('the targets are where the test meant them: two in one cell, one by a cell’s edge', async () => {
    expect((await cellOf(targets.southWest.at)).centre).toEqual(cell.centre);
    expect((await cellOf(targets.northEast.at)).centre).toEqual(cell.centre);
    expect(kmBetween(targets.southWest.at, targets.northEast.at)).toBeGreaterThan(2.5);
    const edge = await cellOf(targets.farNorthEdge.at);
    expect(kmBetween(targets.farNorthEdge.at, edge.centre)).toBeGreaterThan(1);
  });

  test('two members in the same cell look exactly alike to everyone else, by every call', () => {
    expect(Object.keys(observations.southWest.seen).length).toBeGreaterThan(90);
    expect(observations.northEast.seen).toEqual(observations.southWest.seen);
  });

  test('least squares over every distance and probed radius edge misses each member by more than 1 km', () => {
    for (const [name, target] of Object.entries(targets) as [keyof typeof targets, Target & { at: Point }][]) {
      const estimate = leastSquares(observations[name].ranges, aroundOf[name].feedPoints[0]);
      expect(kmBetween(estimate, target.at), name).toBeGreaterThan(1);
    }
  });

  test('every distance answered is a whole number of kilometres', () => {
    const all = Object.values(observations).flatMap((observed) => observed.distances);
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter((km) => !Number.isInteger(km))).toEqual([]);
  });

  test('others see the centre of the cell; the member alone sees the point they gave', async () => {
    const { member, at } = targets.southWest;
    const cellWire = { type: 'Point', coordinates: [cell.centre.longitude, cell.centre.latitude] };
    expect((await restGet(`/api/user/by-user-name/${member.userName}`)).json().location).toEqual(cellWire);
    const anonymous = await gql<{ user: { location: Point } }>(
      t.app,
      `{ user(userName: "${member.userName}") { location { latitude longitude } } }`,
    );
    expect(anonymous.data?.user.location).toEqual(cell.centre);
    expect(kmBetween(cell.centre, at)).toBeGreaterThan(1);

    expect((await restGet('/api/user/logged-in-user', member.token)).json().location).toEqual({
      type: 'Point',
      coordinates: [at.longitude, at.latitude],
    });
    const me = await gql<{ me: { location: Point } }>(t.app, '{ me { location { latitude longitude } } }', {}, member.token);
    expect(me.data?.me.location).toEqual(at);
    // The mix stores the cell alone: no exact point is kept with it.
    const [stored] = await t.services.orm.em
      .fork()
      .execute<Point[]>('select latitude, longitude from mix where id = ?', [targets.southWest.mixId]);
    expect(stored).toEqual(cell.centre);
  });
});

describe('the grid', () => {
  test('cells stay about 2 km wide at every latitude, up to the poles, and hold each point within ~1.5 km of their centre', async () => {
    for (const latitude of [0, -33.87, 52.52, 70, 85, 89, 89.9, 89.99, -89.995]) {
      const rows = await t.services.orm.em.fork().execute<{ gap_m: number; offset_m: number }[]>(
        // 3,000 points along 30 km of the row (all of it near a pole), and the centres of the cells they fall in.
        `with span as (select least(360, 30 / (111.3 * cos(radians(?::float8)))) as degrees),
         row_points as (
           select geo_cell_latitude(?::float8) as lat, geo_cell_longitude(?::float8, lng) as cell_lng,
                  earth_distance(geo_earth(?::float8, lng), geo_earth(geo_cell_latitude(?::float8), geo_cell_longitude(?::float8, lng))) as offset_m
             from span, generate_series(0, 2999) as i, lateral (select -180 + i * span.degrees / 3000 as lng) point),
         centres as (select distinct lat, cell_lng from row_points)
         select earth_distance(geo_earth(lat, cell_lng), geo_earth(lat, lead(cell_lng) over (order by cell_lng))) as gap_m,
                (select max(offset_m) from row_points) as offset_m
           from centres`,
        Array(6).fill(latitude),
      );
      const gaps = rows.map((row) => row.gap_m).filter((gap): gap is number => gap !== null);
      expect(Math.min(...gaps), `latitude ${latitude}`).toBeGreaterThan(1700);
      expect(Math.max(...gaps), `latitude ${latitude}`).toBeLessThan(2200);
      expect(rows[0].offset_m, `latitude ${latitude}`).toBeLessThan(1600);
    }
  });
});

describe('location changes', () => {
  test('a member changes their place at most 5 times an hour: then a 429 that names the limit (REST and GraphQL)', async () => {
    const member = await signUpMember(t.app);
    const headers = { 'x-auth-token': member.token };
    const move = (latitude: number) =>
      t.app.inject({ method: 'PATCH', url: '/api/user/update-location', headers, payload: { location: { latitude, longitude: 2 } } });
    for (let change = 0; change < 5; change++) expect((await move(40 + change)).statusCode).toBe(200);
    // The same place again changes nothing and costs nothing.
    expect((await move(44)).statusCode).toBe(200);
    const refused = await move(50);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many location changes: at most 5 in an hour\. Please try again in \d+ minutes\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect((await restGet('/api/user/logged-in-user', member.token)).json().location.coordinates).toEqual([2, 44]);

    const other = await signUpMember(t.app);
    const set = (latitude: number) =>
      gql<{ setLocation: { location: Point } }>(
        t.app,
        'mutation ($at: LocationInput!) { setLocation(location: $at) { location { latitude longitude } } }',
        { at: { latitude, longitude: 2.3456789 } },
        other.token,
      );
    for (let change = 0; change < 5; change++) {
      // The answer is the member's own place, exactly as given.
      expect((await set(10.1234567 + change)).data?.setLocation.location).toEqual({ latitude: 10.1234567 + change, longitude: 2.3456789 });
    }
    const graphRefused = await set(20);
    expect(graphRefused.errors?.[0].extensions?.code).toBe('TOO_MANY_REQUESTS');
    expect(graphRefused.errors?.[0].message).toContain('at most 5 in an hour');
  });
});

describe('the migration', () => {
  test('backfills the cells of members and mixes stored before it', async () => {
    const databaseUrl = await createTestDatabase();
    const orm = await openOrm(databaseUrl);
    try {
      const before = migrations.findIndex((migration) => migration.name === 'Migration20261204000000_location_cells') - 1;
      await orm.migrator.up({ to: migrations[before].name });
      const em = orm.em.fork();
      const at = { latitude: 48.8566123, longitude: 2.3522456 };
      const [{ id }] = await em.execute<{ id: string }[]>(
        `insert into app_user (id, email, password_hash, latitude, longitude, created_at, updated_at)
         values (gen_random_uuid(), 'before@example.com', 'x', ?, ?, now(), now()) returning id`,
        [at.latitude, at.longitude],
      );
      await em.execute(
        `insert into mix (id, owner_id, title, genre, cover, mp3, latitude, longitude, created_at, updated_at)
         values (gen_random_uuid(), ?, 'Before', 'house', 'c.jpg', 'a.mp3', ?, ?, now(), now())`,
        [id, at.latitude, at.longitude],
      );
      await orm.migrator.up();
      const [cell] = await em.execute<Point[]>('select geo_cell_latitude(?) as latitude, geo_cell_longitude(?, ?) as longitude', [
        at.latitude,
        at.latitude,
        at.longitude,
      ]);
      expect(kmBetween(cell, at)).toBeGreaterThan(0.1);
      expect(await em.execute('select latitude, longitude, cell_latitude, cell_longitude from app_user')).toEqual([
        { ...at, cell_latitude: cell.latitude, cell_longitude: cell.longitude },
      ]);
      expect(await em.execute('select latitude, longitude from mix')).toEqual([cell]);
      // Whatever writes a mix later stores the cell too.
      await em.execute(`update mix set latitude = ?, longitude = ?`, [at.latitude, at.longitude]);
      expect(await em.execute('select latitude, longitude from mix')).toEqual([cell]);
    } finally {
      await orm.close();
      await dropTestDatabase(databaseUrl);
    }
  });
});
