import bcrypt from 'bcrypt';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Orm } from '../db/orm.js';
import { BCRYPT_COST } from '../modules/auth/auth.service.js';
import { Follow } from '../modules/follows/follow.entity.js';
import { SavedMix } from '../modules/library/saved-mix.entity.js';
import { SavedTrack } from '../modules/library/saved-track.entity.js';
import { Listen } from '../modules/listens/listen.entity.js';
import { Mix } from '../modules/mixes/mix.entity.js';
import { hostingEnds } from '../modules/mixes/mix-lifecycle.js';
import { MixTrack } from '../modules/mixes/mix-track.entity.js';
import { type ITracklistVersion, TracklistVersion, TracklistVersionEntry } from '../modules/mixes/tracklist-version.entity.js';
import type { Fingerprints } from '../modules/recognition/fingerprint.js';
import { RecognitionService } from '../modules/recognition/recognition.service.js';
import { Track } from '../modules/tracks/track.entity.js';
import { type IUser, User } from '../modules/users/user.entity.js';
import { GENRE_CODES, type GenreCode } from '../shared/domain.js';
import { FOLDERS, objectKey, type StorageDriver } from '../storage/storage.js';
import { avatar, mixCover, trackCover } from './art.js';
import { DemoAudio, inParallel } from './demo-audio.js';
import { DEMO_CATALOGUE_SOURCE, loadDemoCatalogue } from './demo-catalogue.js';
import type { RenderedMix } from './demo-workers.js';
import { DEMO_LOGINS, DEMO_PASSWORD, MIX_BITRATE, type PlannedMix, type PlannedWorld, planWorld } from './plan.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every storage key the demo world writes. */
export function demoFileKeys(world: PlannedWorld): string[] {
  return [
    ...world.members.map((member) => objectKey(FOLDERS.profileImages, member.avatar)),
    ...world.references.map((reference) => objectKey(FOLDERS.trackCovers, reference.cover)),
    ...world.mixes.flatMap((mix) => [objectKey(FOLDERS.mixImages, mix.cover), objectKey(FOLDERS.mixAudio, mix.mp3)]),
  ];
}

/** Renders the covers and avatars into storage (sharp works on its own threads, beside the audio). */
async function renderImages(world: PlannedWorld, put: (key: string, body: Buffer) => Promise<void>): Promise<void> {
  const hueOf = (genre: GenreCode) => (GENRE_CODES.indexOf(genre) * 360) / GENRE_CODES.length;
  const images = [
    ...world.members.map(
      (member) => () => avatar(member.id, member.displayName).then((image) => put(objectKey(FOLDERS.profileImages, member.avatar), image)),
    ),
    ...world.references.map(
      (reference) => () => trackCover(reference.trackId).then((image) => put(objectKey(FOLDERS.trackCovers, reference.cover), image)),
    ),
    ...world.mixes.map(
      (mix) => () => mixCover(mix.id, hueOf(mix.genre), mix.title).then((image) => put(objectKey(FOLDERS.mixImages, mix.cover), image)),
    ),
  ];
  await inParallel(images, 2, (render) => render());
}

type RenderedMixes = Map<string, Omit<RenderedMix, 'kind' | 'mp3'> & { bytes: number }>;

/**
 * The demo world's audio (see DemoAudio), taken as it comes: each mix's MP3 into storage, each reference's
 * fingerprints handed to `fingerprinted`. Logs its progress; stops (failing) when `signal` aborts.
 */
async function renderAudio(
  world: PlannedWorld,
  audio: DemoAudio,
  put: (key: string, body: Buffer) => Promise<void>,
  fingerprinted: (trackId: string, fingerprints: Fingerprints) => void,
  log: FastifyBaseLogger,
  signal: AbortSignal | undefined,
): Promise<RenderedMixes> {
  const stop = () => void audio.close();
  signal?.addEventListener('abort', stop, { once: true });
  const mixes: RenderedMixes = new Map();
  let references = 0;
  const step = Math.ceil(audio.jobs.length / 10);
  try {
    for (const [at, job] of audio.jobs.entries()) {
      const reply = await audio.results[at];
      if (signal?.aborted) throw new Error('the demo world build was stopped');
      if (job.kind === 'mix' && reply?.kind === 'mix') {
        const mix = world.mixes[job.index] as PlannedMix;
        const { mp3, durationSeconds, peaks } = reply;
        await put(objectKey(FOLDERS.mixAudio, mix.mp3), Buffer.from(mp3.buffer, mp3.byteOffset, mp3.byteLength));
        mixes.set(mix.id, { durationSeconds, peaks, bytes: mp3.byteLength });
      } else if (job.kind === 'reference' && reply?.kind === 'reference') {
        const { hashes, data, seconds } = reply;
        fingerprinted(world.references[job.index]?.trackId ?? '', { hashes, data, seconds });
        references += 1;
      }
      const done = at + 1;
      if (done % step === 0 || done === audio.jobs.length) {
        log.info({ done, of: audio.jobs.length, mixes: mixes.size, references }, 'building the demo world');
      }
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    await audio.close();
  }
  return mixes;
}

/**
 * The references' catalogue rows, first (their fingerprints are stored as they are made); a build that stopped
 * midway may have left them, so they are written afresh.
 */
async function writeReferenceTracks(orm: Orm, world: PlannedWorld, now: number): Promise<void> {
  await orm.em.fork().transactional(async (em) => {
    await em.nativeDelete(Track, { id: { $in: world.references.map((reference) => reference.trackId) } });
    for (const reference of world.references) {
      em.create(Track, {
        id: reference.trackId,
        title: reference.title,
        creators: reference.creators.map((name) => ({ id: null, name })),
        label: { id: null, name: reference.label },
        cover: reference.cover,
        buy: !reference.newRelease,
        newRelease: reference.newRelease,
        createdAt: new Date(now - 400 * DAY_MS),
      });
    }
  });
}

async function writeRows(orm: Orm, world: PlannedWorld, rendered: RenderedMixes, now: number): Promise<void> {
  const passwordHash = await bcrypt.hash(DEMO_PASSWORD, BCRYPT_COST);
  const ago = (days: number) => new Date(now - days * DAY_MS);
  await orm.em.fork().transactional(async (em) => {
    const users = new Map<string, IUser>();
    for (const member of world.members) {
      const user = em.create(User, {
        id: member.id,
        email: member.email,
        passwordHash,
        userName: member.userName,
        displayName: member.displayName,
        userType: member.userType,
        bio: member.bio,
        userImage: member.avatar,
        latitude: member.latitude,
        longitude: member.longitude,
        isAgreedToConduct: true,
        createdAt: ago(member.joinedDaysAgo),
        updatedAt: ago(member.joinedDaysAgo),
      });
      users.set(member.id, user);
    }
    const plays = new Map<string, number>();
    for (const listen of world.listens) plays.set(listen.mixId, (plays.get(listen.mixId) ?? 0) + 1);
    // Each mix is published with its tracklist as version 1, and its listens name it (docs/payments.md#tracklist-versions).
    const versions = new Map<string, ITracklistVersion>();
    for (const mix of world.mixes) {
      const facts = rendered.get(mix.id);
      if (!facts) throw new Error(`mix ${mix.id} was not rendered`);
      const publishedAt = ago(mix.publishedDaysAgo);
      em.create(Mix, {
        id: mix.id,
        owner: mix.ownerId,
        title: mix.title,
        genre: mix.genre,
        cover: mix.cover,
        mp3: mix.mp3,
        audioBytes: facts.bytes,
        durationSeconds: facts.durationSeconds,
        bitrate: MIX_BITRATE,
        peaks: facts.peaks,
        waveformState: 'ready',
        latitude: mix.latitude,
        longitude: mix.longitude,
        status: 'published',
        publishedAt,
        expiresAt: hostingEnds(publishedAt),
        playCount: plays.get(mix.id) ?? 0,
        createdAt: new Date(publishedAt.getTime() - 60 * 60 * 1000),
        updatedAt: publishedAt,
      });
      const version = em.create(TracklistVersion, { mix: mix.id, number: 1, createdAt: publishedAt });
      versions.set(mix.id, version);
      mix.segments.forEach((segment, index) => {
        const reference = world.references[segment.reference];
        if (!reference) throw new Error(`no reference ${segment.reference}`);
        const entry = { track: reference.trackId, position: index + 1, startTime: segment.startTime, endTime: segment.endTime };
        em.create(MixTrack, { mix: mix.id, ...entry });
        em.create(TracklistVersionEntry, { version, ...entry });
      });
    }
    for (const [follower, followee] of world.follows) em.create(Follow, { follower, followee, createdAt: ago(30) });
    for (const saved of world.savedMixes) em.create(SavedMix, { user: saved.userId, mix: saved.mixId, savedAt: ago(saved.daysAgo) });
    for (const saved of world.savedTracks) em.create(SavedTrack, { user: saved.userId, track: saved.trackId, savedAt: ago(saved.daysAgo) });
    for (const listen of world.listens) {
      const startedAt = ago(listen.daysAgo);
      const endedAt = new Date(startedAt.getTime() + listen.seconds * 1000);
      const tracklistVersion = versions.get(listen.mixId) ?? null;
      em.create(Listen, { mix: listen.mixId, user: listen.userId, tracklistVersion, startedAt, endedAt, aliveAt: endedAt });
    }
    for (const current of world.currentMixes) {
      const user = users.get(current.userId);
      if (!user) throw new Error(`no member ${current.userId}`);
      user.currentMix = em.getReference(Mix, current.mixId);
      user.currentMixPos = current.position;
    }
  });
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
 * database without members: the first start. Files are written first and the rows in one transaction after them;
 * when anything fails, the files go again. Returns false (and changes nothing) when it was not empty.
 */
export async function loadDemoWorld({ orm, storage, log, signal, audio: begun }: DemoWorldOptions, onlyIfEmpty = true): Promise<boolean> {
  try {
    return await buildDemoWorld({ orm, storage, log, signal, audio: begun }, onlyIfEmpty);
  } finally {
    // Whatever happened, no thread goes on working for it.
    await begun?.close();
  }
}

function buildDemoWorld({ orm, storage, log, signal, audio: begun }: DemoWorldOptions, onlyIfEmpty: boolean): Promise<boolean> {
  return holdingDemoLock(orm, async () => {
    if (onlyIfEmpty && !(await databaseIsEmpty(orm))) return false;
    const started = Date.now();
    const world = planWorld();
    const audioWork = begun ?? new DemoAudio(world);
    log.info(
      { members: world.members.length, mixes: world.mixes.length, references: world.references.length },
      'building the demo world (once)',
    );
    const written: string[] = [];
    const put = async (key: string, body: Buffer) => {
      written.push(key);
      await storage.put(key, body);
    };
    const recognition = new RecognitionService(orm);
    const stored: Promise<unknown>[] = [];
    try {
      await writeReferenceTracks(orm, world, Date.now());
      // The audio on the demo world threads; beside it on this thread the images, the catalogue and each reference's
      // fingerprints as they come. All settle before a failure is handled: the clean-up must come after the last write.
      const [audio, ...others] = await Promise.allSettled([
        renderAudio(
          world,
          audioWork,
          put,
          (trackId, fingerprints) => stored.push(recognition.storeFingerprints(trackId, fingerprints)),
          log,
          signal,
        ),
        renderImages(world, put),
        loadDemoCatalogue(orm),
      ]);
      const failures = [audio, ...others, ...(await Promise.allSettled(stored))].filter((result) => result.status === 'rejected');
      if (failures[0]) throw failures[0].reason;
      if (audio.status === 'fulfilled') await writeRows(orm, world, audio.value, Date.now());
    } catch (error) {
      await audioWork.close();
      await Promise.allSettled(stored);
      await orm.em
        .fork()
        .nativeDelete(Track, {
          $or: [{ id: { $in: world.references.map((reference) => reference.trackId) } }, { externalSource: DEMO_CATALOGUE_SOURCE }],
        })
        .catch(() => undefined);
      await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
      throw error;
    }
    log.info({ ms: Date.now() - started }, 'demo world built');
    return true;
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
  await holdingDemoLock(orm, () =>
    orm.em.fork().transactional(async (em) => {
      await em.nativeDelete(User, { id: { $in: world.members.map((member) => member.id) } });
      await em.nativeDelete(Track, { id: { $in: world.references.map((reference) => reference.trackId) } });
      await em.nativeDelete(Track, { externalSource: DEMO_CATALOGUE_SOURCE });
    }),
  );
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
