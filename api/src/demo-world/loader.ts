import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Orm } from '../db/orm.js';
import type { Fingerprints } from '../modules/recognition/fingerprint.js';
import { RecognitionService } from '../modules/recognition/recognition.service.js';
import { Track } from '../modules/tracks/track.entity.js';
import { User } from '../modules/users/user.entity.js';
import { GENRE_CODES, type GenreCode } from '../shared/domain.js';
import { FOLDERS, objectKey, type StorageDriver } from '../storage/storage.js';
import { avatar, mixCover, trackCover } from './art.js';
import { DemoAudio, inParallel, mixesInFeedOrder } from './demo-audio.js';
import { DEMO_CATALOGUE_SOURCE, loadDemoCatalogue } from './demo-catalogue.js';
import { publishDemoMix, type RenderedFacts, unpublishedDemoMixes, writeDemoRows } from './demo-rows.js';
import { DEMO_LOGINS, type PlannedMix, type PlannedWorld, planWorld } from './plan.js';

/** The home page's first page of cards (the web's PAGE_SIZE): the build says when these all play. */
export const FIRST_SCREEN_MIXES = 20;

/** Every storage key the demo world writes. */
export function demoFileKeys(world: PlannedWorld): string[] {
  return [
    ...world.members.map((member) => objectKey(FOLDERS.profileImages, member.avatar)),
    ...world.references.map((reference) => objectKey(FOLDERS.trackCovers, reference.cover)),
    ...world.mixes.flatMap((mix) => [objectKey(FOLDERS.mixImages, mix.cover), objectKey(FOLDERS.mixAudio, mix.mp3)]),
  ];
}

/**
 * Renders the covers and avatars into storage (sharp works on its own threads, beside the audio): the mixes' covers
 * first, in the feed's order, since a mix is published only once its cover is there too; the avatars and the
 * references' covers, which the home page does not show, once `later` resolves (the first screen plays), so they take
 * no CPU from it. Resolves each mix's cover by its id, and `all` when every image is stored.
 */
export function renderImages(
  world: PlannedWorld,
  mixIndexes: readonly number[],
  put: (key: string, body: Buffer) => Promise<void>,
  later: Promise<void>,
): { covers: Map<string, Promise<void>>; all: Promise<void> } {
  const hueOf = (genre: GenreCode) => (GENRE_CODES.indexOf(genre) * 360) / GENRE_CODES.length;
  const covers = new Map<string, Promise<void>>();
  const mixCovers = mixesInFeedOrder(world, mixIndexes).map((index) => {
    const mix = world.mixes[index] as PlannedMix;
    let done: (result: Promise<void>) => void = () => undefined;
    const cover = new Promise<void>((resolve) => {
      done = resolve;
    });
    // Whoever publishes the mix sees a failure; a cover nobody waits for (the build stopped) must not go unhandled.
    cover.catch(() => undefined);
    covers.set(mix.id, cover);
    return () => {
      const rendered = mixCover(mix.id, hueOf(mix.genre), mix.title).then((image) => put(objectKey(FOLDERS.mixImages, mix.cover), image));
      done(rendered);
      return rendered;
    };
  });
  const others = [
    ...world.members.map(
      (member) => () => avatar(member.id, member.displayName).then((image) => put(objectKey(FOLDERS.profileImages, member.avatar), image)),
    ),
    ...world.references.map(
      (reference) => () => trackCover(reference.trackId).then((image) => put(objectKey(FOLDERS.trackCovers, reference.cover), image)),
    ),
  ];
  const render = (jobs: (() => Promise<void>)[]) => inParallel(jobs, 2, (job) => job());
  return { covers, all: Promise.all([render(mixCovers), later.then(() => render(others))]).then(() => undefined) };
}

/** Resolves when the mix's cover is stored; fails when the images fail (the cover may then never be rendered). */
function coverStored(images: ReturnType<typeof renderImages>, mixId: string): Promise<unknown> {
  const cover = images.covers.get(mixId);
  return cover ? Promise.race([cover, images.all.then(() => cover)]) : images.all;
}

/** What the audio step does with each result, besides storing the MP3s. */
interface AudioSteps {
  /** A mix's MP3 is stored: its row is to be published (in the feed's order, as they come). */
  playable(mix: PlannedMix, facts: RenderedFacts): Promise<void>;
  /** Every mix of the home page's first screen plays. */
  firstScreen(): void;
  fingerprinted(trackId: string, fingerprints: Fingerprints): void;
}

/**
 * The demo world's audio (see DemoAudio), taken as it comes: each mix's MP3 into storage and then `playable`, each
 * reference's fingerprints to `fingerprinted`. Logs its progress, and when the home page's first screen of mixes all
 * play; stops (failing) when `signal` aborts.
 */
async function renderAudio(
  world: PlannedWorld,
  audio: DemoAudio,
  put: (key: string, body: Buffer) => Promise<void>,
  steps: AudioSteps,
  log: FastifyBaseLogger,
  signal: AbortSignal | undefined,
): Promise<void> {
  const stop = () => void audio.close();
  signal?.addEventListener('abort', stop, { once: true });
  let mixes = 0;
  let references = 0;
  const firstScreen = Math.min(FIRST_SCREEN_MIXES, audio.jobs.filter((job) => job.kind === 'mix').length);
  const step = Math.ceil(audio.jobs.length / 10);
  try {
    for (const [at, job] of audio.jobs.entries()) {
      const reply = await audio.results[at];
      if (signal?.aborted) throw new Error('the demo world build was stopped');
      if (job.kind === 'mix' && reply?.kind === 'mix') {
        const mix = world.mixes[job.index] as PlannedMix;
        const { mp3, durationSeconds, peaks } = reply;
        await put(objectKey(FOLDERS.mixAudio, mix.mp3), Buffer.from(mp3.buffer, mp3.byteOffset, mp3.byteLength));
        await steps.playable(mix, { durationSeconds, peaks, bytes: mp3.byteLength });
        mixes += 1;
        if (mixes === firstScreen) {
          log.info({ mixes }, 'demo world: first screen playable');
          steps.firstScreen();
        }
      } else if (job.kind === 'reference' && reply?.kind === 'reference') {
        const { hashes, data, seconds } = reply;
        steps.fingerprinted(world.references[job.index]?.trackId ?? '', { hashes, data, seconds });
        references += 1;
      }
      const done = at + 1;
      if (done % step === 0 || done === audio.jobs.length) {
        log.info({ done, of: audio.jobs.length, mixes, references }, 'building the demo world');
      }
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    await audio.close();
  }
}

export interface DemoWorldOptions {
  orm: Orm;
  storage: StorageDriver;
  log: FastifyBaseLogger;
  /** Stops the build (it fails, and removes what it wrote), as a server stopping during its first start does. */
  signal?: AbortSignal;
  /** The audio work, if the start began it already (see DemoAudio); else the build begins it. */
  audio?: DemoAudio;
}

const LOCK_NAME = 'mixcrate-demo-world';

/**
 * Runs `work` holding a PostgreSQL advisory lock on a connection of its own: processes starting together on one
 * database take turns, so the second sees the first one's demo world instead of building (and on its failure
 * deleting the files of) a second one. Closing the connection lets go of the lock, even when the process dies.
 */
async function holdingDemoLock<T>(orm: Orm, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: orm.config.get('clientUrl') });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [LOCK_NAME]);
    return await work();
  } finally {
    await client.end();
  }
}

/** Whether the database has no members yet: the demo world is only built into such a one. */
export const databaseIsEmpty = async (orm: Orm) => {
  const [row] = await orm.em.fork().getConnection().execute<{ any: boolean }[]>('select exists(select 1 from app_user) as any');
  return !row?.any;
};

/**
 * Loads the demo world (members, catalogue, mixes with real MP3s, listens, saves, follows), by default only into a
 * database without members: the first start. The rows go in first, in one transaction, with the mixes as drafts; each
 * mix is published once its MP3 and cover are stored, in the home feed's order, so the first screen plays within
 * seconds and no visitor meets a mix that cannot play. When anything fails, the rows and files go again. On a database
 * with the demo world it only finishes the mixes a killed build left unpublished. Returns false (and changes
 * nothing) when there was nothing to do.
 */
export async function loadDemoWorld({ orm, storage, log, signal, audio: begun }: DemoWorldOptions, onlyIfEmpty = true): Promise<boolean> {
  try {
    return await buildDemoWorld({ orm, storage, log, signal, audio: begun }, onlyIfEmpty);
  } finally {
    // Whatever happened, no thread goes on working for it.
    await begun?.close();
  }
}

/**
 * What a build has to do: everything (a database without members), the mixes a killed build left unpublished (and
 * their images; the references' fingerprints are caught up by indexDemoReferencesOnce), or nothing.
 */
async function buildScope(orm: Orm, world: PlannedWorld, onlyIfEmpty: boolean): Promise<{ fresh: boolean; mixes: number[] } | null> {
  if (!onlyIfEmpty || (await databaseIsEmpty(orm))) return { fresh: true, mixes: world.mixes.map((_, index) => index) };
  const mixes = await unpublishedDemoMixes(orm, world);
  return mixes.length > 0 ? { fresh: false, mixes } : null;
}

function buildDemoWorld({ orm, storage, log, signal, audio: begun }: DemoWorldOptions, onlyIfEmpty: boolean): Promise<boolean> {
  return holdingDemoLock(orm, async () => {
    const world = planWorld();
    const scope = await buildScope(orm, world, onlyIfEmpty);
    if (!scope) return false;
    const started = Date.now();
    const now = started;
    const { fresh } = scope;
    if (!fresh) await begun?.close();
    const audioWork = fresh ? (begun ?? new DemoAudio(world)) : new DemoAudio(world, { mixes: scope.mixes, references: [] });
    log.info(
      { members: world.members.length, mixes: scope.mixes.length, references: fresh ? world.references.length : 0 },
      fresh ? 'building the demo world (once)' : 'finishing the demo world: mixes a stopped build left unpublished',
    );
    const written: string[] = [];
    const put = async (key: string, body: Buffer) => {
      written.push(key);
      await storage.put(key, body);
    };
    const recognition = new RecognitionService(orm);
    const stored: Promise<unknown>[] = [];
    try {
      // Rows first (about a second): members, mixes as drafts, tracklists. Then on the demo world threads the audio,
      // in the feed's order, and beside it on this thread the images, the catalogue and each reference's
      // fingerprints as they come; each mix is published once its MP3 and cover are stored. All settle before a
      // failure is handled: the clean-up must come after the last write.
      if (fresh) await writeDemoRows(orm, world, now);
      log.info({ ms: Date.now() - started }, 'demo world: members, mixes and tracklists in; their audio follows');
      // The demo catalogue (lookup's 2,500 tracks, seconds of this thread and the database) and the images the home
      // page does not show wait for the first screen.
      let firstScreen: () => void = () => undefined;
      const firstScreenPlays = new Promise<void>((resolve) => {
        firstScreen = resolve;
      });
      const images = renderImages(world, scope.mixes, put, firstScreenPlays);
      const steps: AudioSteps = {
        firstScreen,
        playable: async (mix, facts) => {
          await coverStored(images, mix.id);
          await publishDemoMix(orm, mix, facts, now);
        },
        fingerprinted: (trackId, fingerprints) => stored.push(recognition.storeFingerprints(trackId, fingerprints)),
      };
      const results = await Promise.allSettled([
        renderAudio(world, audioWork, put, steps, log, signal).finally(firstScreen),
        images.all,
        fresh ? firstScreenPlays.then(() => loadDemoCatalogue(orm)) : Promise.resolve(),
      ]);
      const failures = [...results, ...(await Promise.allSettled(stored))].filter((result) => result.status === 'rejected');
      if (failures[0]) throw failures[0].reason;
    } catch (error) {
      await audioWork.close();
      await Promise.allSettled(stored);
      // A fresh build that fails takes its rows away (the next start builds it again); a finishing one leaves them.
      if (fresh) await removeDemoRows(orm, world).catch(() => undefined);
      await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
      throw error;
    }
    log.info({ ms: Date.now() - started }, 'demo world built');
    return true;
  });
}

/** The demo world's rows: its members (with their mixes, listens, saves and follows), references and catalogue. */
async function removeDemoRows(orm: Orm, world: PlannedWorld): Promise<void> {
  await orm.em.fork().transactional(async (em) => {
    await em.nativeDelete(User, { id: { $in: world.members.map((member) => member.id) } });
    await em.nativeDelete(Track, {
      $or: [{ id: { $in: world.references.map((reference) => reference.trackId) } }, { externalSource: DEMO_CATALOGUE_SOURCE }],
    });
  });
}

/**
 * Loads the demo catalogue (some 2,500 invented tracks beside the demo world's references, and the lookup index of
 * both) when the demo world is there, once: it is written by external id, so later calls find it loaded and only
 * index what is new (about half a second). A first load takes a few seconds, so the server runs this after it starts
 * serving (see startServer); processes starting together take turns under the demo world's lock.
 */
export async function loadDemoCatalogueOnce({ orm, log }: Omit<DemoWorldOptions, 'storage'>): Promise<void> {
  if (!(await demoLoginsExist(orm))) return;
  const started = Date.now();
  const summary = await holdingDemoLock(orm, () => loadDemoCatalogue(orm));
  if (summary.created + summary.updated > 0) log.info({ ...summary, ms: Date.now() - started }, 'demo catalogue loaded');
}

/**
 * Removes the demo world: its members (with their mixes, listens, saves and follows), its references and the demo
 * catalogue, its files.
 */
export async function removeDemoWorld({ orm, storage }: Omit<DemoWorldOptions, 'log'>): Promise<void> {
  const world = planWorld();
  await holdingDemoLock(orm, () => removeDemoRows(orm, world));
  await Promise.all(demoFileKeys(world).map((key) => storage.delete(key).catch(() => undefined)));
}

/** Whether the demo logins exist (the start prints them then). */
export async function demoLoginsExist(orm: Orm): Promise<boolean> {
  const [row] = await orm.em
    .fork()
    .getConnection()
    .execute<{ any: boolean }[]>('select exists(select 1 from app_user where email = ?) as any', [DEMO_LOGINS.dj.email]);
  return Boolean(row?.any);
}
