import { MPEGDecoder } from 'mpg123-decoder';
import { parseBuffer } from 'music-metadata';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DemoAudio } from '../src/demo-world/demo-audio.js';
import { DEMO_CATALOGUE_SOURCE } from '../src/demo-world/demo-catalogue.js';
import { demoFileKeys, loadDemoCatalogueOnce, loadDemoWorld, removeDemoWorld } from '../src/demo-world/loader.js';
import {
  DEMO_DOMAIN,
  DEMO_LOGINS,
  MIX_SAMPLE_RATE,
  type PlannedWorld,
  planWorld,
  referenceIndexOfTrack,
  referenceTrackId,
} from '../src/demo-world/plan.js';
import { DEMO_SEED } from '../src/demo-world/seed.js';
import { referenceRecipe, renderReference, SAMPLE_RATE } from '../src/demo-world/synth.js';
import { CONTINENTS } from '../src/demo-world/words.js';
import { GENRE_CODES, USER_TYPE_CODES } from '../src/shared/domain.js';
import { FOLDERS, objectKey } from '../src/storage/storage.js';
import { createTestApp, STRONG_PASSWORD, type TestApp } from './support/app.js';

const log = pino({ level: 'silent' });
let app: TestApp;
let world: PlannedWorld;

async function readAll(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of app.services.storage.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sql = <T>(query: string, params: unknown[] = []) => app.services.orm.em.fork().getConnection().execute<T[]>(query, params);

beforeAll(async () => {
  app = await createTestApp();
  world = planWorld();
  // As a first start does: the audio work begun before the database exists, taken up by the build.
  const audio = new DemoAudio(world);
  expect(await loadDemoWorld({ orm: app.services.orm, storage: app.services.storage, log, audio })).toBe(true);
}, 600_000);

afterAll(async () => {
  await app?.close();
});

describe('the demo world', () => {
  test('is the same plan every time: names, places, tracks and mixes come from the seed', () => {
    expect(planWorld()).toEqual(world);
    const other = planWorld(DEMO_SEED + 1);
    expect(other).toEqual(planWorld(DEMO_SEED + 1));
    expect(other.mixes.map((mix) => mix.title)).not.toEqual(world.mixes.map((mix) => mix.title));
  });

  test('the synthesiser gives the same samples for the same reference, and other samples for another', () => {
    const samples = renderReference(referenceRecipe(7, 3), SAMPLE_RATE, 10, 12);
    expect(samples).toHaveLength(2 * SAMPLE_RATE);
    expect(samples.some((sample) => Math.abs(sample) > 0.05)).toBe(true);
    expect(renderReference(referenceRecipe(7, 3), SAMPLE_RATE, 10, 12)).toEqual(samples);
    expect(renderReference(referenceRecipe(7, 4), SAMPLE_RATE, 10, 12)).not.toEqual(samples);
    // By index, a reference of the demo catalogue, whose catalogue track is known.
    expect(renderReference(5, 16_000, 0, 1)).toEqual(renderReference(referenceRecipe(DEMO_SEED, 5), 16_000, 0, 1));
    expect(referenceIndexOfTrack(referenceTrackId(5))).toBe(5);
    expect(world.references[5]?.trackId).toBe(referenceTrackId(5));
  });

  test('the references vary in tempo (70 to 175 BPM), key, timbre and rhythm, and last a minute or more', () => {
    const recipes = world.references.map((reference) => reference.recipe);
    const tempos = recipes.map((recipe) => recipe.bpm);
    expect(Math.min(...tempos)).toBeGreaterThanOrEqual(70);
    expect(Math.min(...tempos)).toBeLessThan(80);
    expect(Math.max(...tempos)).toBeGreaterThan(165);
    expect(Math.max(...tempos)).toBeLessThanOrEqual(175);
    expect(new Set(recipes.map((recipe) => recipe.rootNote % 12)).size).toBe(12);
    expect(new Set(recipes.map((recipe) => `${recipe.bassWave} ${recipe.leadWave}`)).size).toBeGreaterThan(8);
    const rhythm = (steps: boolean[]) => steps.map(Number).join('');
    const rhythms = recipes.map((recipe) => [recipe.kick, recipe.snare, recipe.hat].map(rhythm).join(' '));
    expect(new Set(rhythms).size).toBe(recipes.length);
    for (const recipe of recipes) expect(recipe.durationSeconds).toBeGreaterThanOrEqual(60);
  });

  test("a first start's audio work fits its budget: about 8,500 s of mixes to encode, 4,900 s of references to fingerprint", () => {
    // Encoding and fingerprinting grow with the seconds of audio, and are nearly all of a first start's CPU: at about
    // 3 ms of CPU per second of mix and 2.5 ms per second of reference, this is some 40 CPU s, 20 s of two cores.
    const mixSeconds = world.mixes.reduce((sum, mix) => sum + mix.durationSeconds, 0);
    const referenceSeconds = world.references.reduce((sum, reference) => sum + reference.recipe.durationSeconds, 0);
    expect(mixSeconds).toBeLessThan(9000);
    expect(referenceSeconds).toBeLessThan(5000);
  });

  test('every mix is taken from inside its references, and every uploader owns several mixes', () => {
    for (const mix of world.mixes) {
      for (const segment of mix.segments) {
        const reference = world.references[segment.reference];
        expect(segment.sourceStart).toBeGreaterThanOrEqual(0);
        expect(segment.sourceStart + segment.endTime - segment.startTime).toBeLessThanOrEqual(reference?.recipe.durationSeconds ?? 0);
      }
    }
    const mixesByOwner = new Map<string, number>();
    for (const mix of world.mixes) mixesByOwner.set(mix.ownerId, (mixesByOwner.get(mix.ownerId) ?? 0) + 1);
    expect(Math.min(...mixesByOwner.values())).toBeGreaterThanOrEqual(3);
    expect(mixesByOwner.get(world.members[0]?.id ?? '')).toBeGreaterThanOrEqual(3);
  });

  test('has enough members, on every continent, of every user type, and enough published mixes in every genre', async () => {
    const [members] = await sql<{ count: string }>(`select count(*) from app_user where email like ?`, [`%@${DEMO_DOMAIN}`]);
    expect(Number(members?.count)).toBeGreaterThanOrEqual(60);
    const types = await sql<{ user_type: string }>('select distinct user_type from app_user');
    expect(types.map((row) => row.user_type).sort()).toEqual([...USER_TYPE_CODES].sort());
    expect(new Set(world.members.map((member) => member.continent))).toEqual(new Set(CONTINENTS));

    const genres = await sql<{ genre: string; count: string }>(
      `select genre, count(*) from mix where status = 'published' and expires_at > now() and deactivated_at is null group by genre`,
    );
    expect(genres.map((row) => row.genre).sort()).toEqual([...GENRE_CODES].sort());
    for (const row of genres) expect(Number(row.count)).toBeGreaterThanOrEqual(3);
    expect(genres.reduce((sum, row) => sum + Number(row.count), 0)).toBe(world.mixes.length);
    expect(world.mixes.length).toBeGreaterThan(3 * 20);
    const [catalogue] = await sql<{ count: string }>('select count(*) from track where not is_manual');
    expect(Number(catalogue?.count)).toBeGreaterThanOrEqual(60);
    const [activity] = await sql<{ listens: string; saves: string; follows: string; new_mixes: string }>(
      `select (select count(*) from listen) as listens, (select count(*) from saved_mix) as saves,
              (select count(*) from follow) as follows,
              (select count(*) from mix where published_at > now() - interval '7 days') as new_mixes`,
    );
    for (const figure of Object.values(activity ?? {})) expect(Number(figure)).toBeGreaterThan(0);
    const published = await sql<{ days: number }>(
      `select extract(epoch from now() - published_at) / 86400 as days from mix where status = 'published'`,
    );
    expect(Math.max(...published.map((row) => Number(row.days)))).toBeGreaterThan(90);
  });

  test('the two demo logins look lived in: user name, place, conduct, follows both ways, saves, a current mix', async () => {
    for (const login of Object.values(DEMO_LOGINS)) {
      const [user] = await sql<Record<string, unknown>>(
        `select u.user_name, u.latitude, u.is_agreed_to_conduct, u.current_mix_id, u.user_image,
                (select count(*) from follow where follower_id = u.id) as following,
                (select count(*) from follow where followee_id = u.id) as followers,
                (select count(*) from saved_mix where user_id = u.id) as saved_mixes
           from app_user u where email = ?`,
        [login.email],
      );
      expect(user).toMatchObject({ is_agreed_to_conduct: true });
      for (const field of ['user_name', 'latitude', 'current_mix_id', 'user_image']) expect(user?.[field]).toBeTruthy();
      for (const count of ['following', 'followers', 'saved_mixes']) expect(Number(user?.[count])).toBeGreaterThan(0);
    }
  });

  test('every tracklist has 5 to 12 reference tracks of the catalogue, in order, with times inside the mix', async () => {
    const rows = await sql<{
      mix_id: string;
      track_id: string;
      position: number;
      start_time: number;
      end_time: number;
      duration_seconds: number;
    }>(
      `select mt.mix_id, mt.track_id, mt.position, mt.start_time, mt.end_time, m.duration_seconds
         from mix_track mt join mix m on m.id = mt.mix_id order by mt.mix_id, mt.position`,
    );
    for (const row of rows) expect(referenceIndexOfTrack(row.track_id)).not.toBeNull();
    const byMix = new Map<string, typeof rows>();
    for (const row of rows) byMix.set(row.mix_id, [...(byMix.get(row.mix_id) ?? []), row]);
    expect(byMix.size).toBe(world.mixes.length);
    for (const entries of byMix.values()) {
      expect(entries.length).toBeGreaterThanOrEqual(5);
      expect(entries.length).toBeLessThanOrEqual(12);
      entries.forEach((entry, index) => {
        expect(entry.position).toBe(index + 1);
        expect(entry.start_time).toBeGreaterThanOrEqual(0);
        expect(entry.end_time).toBeGreaterThan(entry.start_time);
        expect(entry.end_time).toBeLessThanOrEqual(entry.duration_seconds + 0.01);
        if (index > 0) expect(entry.start_time).toBeGreaterThan(entries[index - 1]?.start_time ?? -1);
      });
    }
  });

  test('every mix is published with its tracklist as version 1, and every listen names it (docs/payments.md#tracklist-versions)', async () => {
    const [counts] = await sql<{ mixes: string; versions: string; differing: string; listens: string; unversioned: string }>(
      `select (select count(*) from mix) as mixes,
              (select count(*) from tracklist_version where number = 1) as versions,
              (select count(*) from mix_track mt join tracklist_version v on v.mix_id = mt.mix_id
                 left join tracklist_version_entry e on e.version_id = v.id and e.position = mt.position
                where e.track_id is distinct from mt.track_id or e.start_time is distinct from mt.start_time) as differing,
              (select count(*) from listen) as listens,
              (select count(*) from listen l left join tracklist_version v on v.id = l.tracklist_version_id
                where v.mix_id is distinct from l.mix_id) as unversioned`,
    );
    expect(Number(counts.mixes)).toBe(world.mixes.length);
    expect(Number(counts.versions)).toBe(world.mixes.length);
    expect(Number(counts.differing)).toBe(0);
    expect(Number(counts.listens)).toBeGreaterThan(0);
    expect(Number(counts.unversioned)).toBe(0);
  });

  test('every file is there: MP3s of 2 to 5 minutes that decode, and 400x400 JPEG covers and avatars', async () => {
    for (const mix of world.mixes) {
      const mp3 = await readAll(objectKey(FOLDERS.mixAudio, mix.mp3));
      const { format } = await parseBuffer(mp3, { mimeType: 'audio/mpeg' }, { duration: true });
      expect(format.codec).toBe('MPEG 2 Layer 3');
      expect(format.duration).toBeGreaterThanOrEqual(120);
      expect(format.duration).toBeLessThanOrEqual(300 + 1);
      expect(Math.abs((format.duration ?? 0) - mix.durationSeconds)).toBeLessThan(1);
    }
    const images = demoFileKeys(world).filter((key) => key.endsWith('.jpg'));
    expect(images.length).toBe(world.members.length + world.references.length + world.mixes.length);
    for (const key of images) {
      const { width, height, format } = await sharp(await readAll(key)).metadata();
      expect({ key, width, height, format }).toEqual({ key, width: 400, height: 400, format: 'jpeg' });
    }
  }, 120_000);

  test("a mix's audio is its tracklist: the middle of each entry is its reference track", async () => {
    const mix = world.mixes[5];
    if (!mix) throw new Error('no mix');
    const tracklist = await sql<{ track_id: string; start_time: number; end_time: number }>(
      'select track_id, start_time, end_time from mix_track where mix_id = ? order by position',
      [mix.id],
    );
    const decoder = new MPEGDecoder();
    await decoder.ready;
    const decoded = decoder.decode(new Uint8Array(await readAll(objectKey(FOLDERS.mixAudio, mix.mp3))));
    decoder.free();
    const audio = decoded.channelData[0] ?? new Float32Array();
    expect(decoded.sampleRate).toBe(MIX_SAMPLE_RATE);

    const window = 2 * MIX_SAMPLE_RATE;
    /** Normalised correlation of two seconds of the decoded mix, `lag` samples late, with a reference's samples. */
    const correlation = (at: number, lag: number, reference: Float32Array) => {
      let dot = 0;
      let energyA = 0;
      let energyB = 0;
      for (let i = 0; i < window; i += 2) {
        const x = audio[at + lag + i] ?? 0;
        const y = reference[i] ?? 0;
        dot += x * y;
        energyA += x * x;
        energyB += y * y;
      }
      return dot / Math.sqrt(energyA * energyB || 1);
    };
    /** Two seconds of reference `index`, from where the mix is in the middle of tracklist entry `entry`. */
    const referenceAtMiddleOf = (entry: number, index: number) => {
      const { start_time: start, end_time: end } = tracklist[entry] ?? { start_time: 0, end_time: 0 };
      const sourceAt = (mix.segments[entry]?.sourceStart ?? 0) + (end - start) / 2;
      return renderReference(index, MIX_SAMPLE_RATE, sourceAt, sourceAt + 2);
    };
    const middleOf = (entry: number) =>
      Math.round(((tracklist[entry]?.start_time ?? 0) + (tracklist[entry]?.end_time ?? 0)) * (MIX_SAMPLE_RATE / 2));

    // The encoder delays the audio by a fixed number of samples: find it once, on the first entry.
    const first = referenceAtMiddleOf(0, referenceIndexOfTrack(tracklist[0]?.track_id ?? '') ?? -1);
    let delay = 0;
    for (let lag = 0; lag < 0.2 * MIX_SAMPLE_RATE; lag += 1) {
      if (correlation(middleOf(0), lag, first) > correlation(middleOf(0), delay, first)) delay = lag;
    }

    expect(tracklist.length).toBe(mix.segments.length);
    for (const [entry, { track_id: trackId }] of tracklist.entries()) {
      const index = referenceIndexOfTrack(trackId);
      if (index === null) throw new Error(`track ${trackId} is no reference`);
      const matching = correlation(middleOf(entry), delay, referenceAtMiddleOf(entry, index));
      const nextIndex = referenceIndexOfTrack(tracklist[(entry + 1) % tracklist.length]?.track_id ?? '') ?? -1;
      const unrelated = correlation(middleOf(entry), delay, referenceAtMiddleOf(entry, nextIndex));
      expect(matching).toBeGreaterThan(0.9);
      expect(Math.abs(unrelated)).toBeLessThan(0.5);
    }
  }, 60_000);

  test('its references are fingerprinted for recognition as it is built, every one', async () => {
    const [row] = await sql<{ references: number }>(
      'select count(*)::int as "references" from recognition_reference where track_id in (?)',
      [world.references.map((reference) => reference.trackId)],
    );
    expect(row?.references).toBe(world.references.length);
  });

  test('the two demo logins sign in', async () => {
    for (const login of Object.values(DEMO_LOGINS)) {
      expect(login.password).toBe(STRONG_PASSWORD);
      const response = await app.app.inject({ method: 'POST', url: '/api/auth', payload: login });
      expect(response.statusCode).toBe(200);
    }
  });

  test('the demo catalogue loads once beside the references: 2,000+ invented tracks, all indexed, found by lookup', async () => {
    const counts = async () =>
      (
        await sql<{ demo: string; unindexed: string; postings: string }>(
          `select (select count(*) from track where external_source = ?) as demo,
                  (select count(*) from track where search_words is null and not is_manual) as unindexed,
                  (select count(*) from catalogue_posting) as postings`,
          [DEMO_CATALOGUE_SOURCE],
        )
      )[0];
    const started = Date.now();
    await loadDemoCatalogueOnce({ orm: app.services.orm, log });
    const firstMs = Date.now() - started;
    const loaded = await counts();
    expect(Number(loaded?.demo)).toBeGreaterThanOrEqual(2000);
    expect(Number(loaded?.unindexed)).toBe(0);
    const again = Date.now();
    await loadDemoCatalogueOnce({ orm: app.services.orm, log });
    expect(await counts()).toEqual(loaded);
    process.stdout.write(`demo catalogue: first load ${firstMs} ms, second ${Date.now() - again} ms\n`);
    // A demo catalogue track and a reference track are each found by the upload's lookup, typed loosely.
    const [invented] = await sql<{ id: string; title: string; artist: string }>(
      `select id, title, creators->0->>'name' as artist from track where external_source = ? order by search_no limit 1`,
      [DEMO_CATALOGUE_SOURCE],
    );
    const reference = world.references[0];
    const found = await app.services.tracks.lookup([
      { artist: invented?.artist.toLowerCase(), title: invented?.title },
      { artist: reference?.creators.join(' & '), title: reference?.title.toUpperCase() },
    ]);
    expect(found[0]?.[0]?.id).toBe(invented?.id);
    expect(found[1]?.[0]?.id).toBe(reference?.trackId);
  }, 120_000);

  test('a second load adds nothing; removing it takes its rows and files away', async () => {
    const count = async () =>
      (await sql<{ count: string }>('select (select count(*) from mix) + (select count(*) from app_user) as count'))[0]?.count;
    const before = await count();
    // Audio work begun for a database that turns out to have members stops, its threads with it.
    const audio = new DemoAudio(world);
    expect(await loadDemoWorld({ orm: app.services.orm, storage: app.services.storage, log, audio })).toBe(false);
    await expect(audio.results.at(-1)).rejects.toThrow(/demo world threads stopped/);
    expect(await count()).toBe(before);

    await removeDemoWorld({ orm: app.services.orm, storage: app.services.storage });
    expect(Number(await count())).toBe(0);
    const [tracks] = await sql<{ count: string }>('select count(*) from track');
    expect(Number(tracks?.count)).toBe(0);
    for (const key of demoFileKeys(world).slice(0, 20)) expect(await app.services.storage.stat(key)).toBeNull();
  });
});
