import bcrypt from 'bcrypt';
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
import { Track } from '../modules/tracks/track.entity.js';
import { type IUser, User } from '../modules/users/user.entity.js';
import { DEMO_PASSWORD, MIX_BITRATE, type PlannedMix, type PlannedWorld } from './plan.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a mix's rendered audio tells its row. */
export interface RenderedFacts {
  durationSeconds: number;
  peaks: number[];
  bytes: number;
}

/**
 * Every row of the demo world, in one transaction, before any audio: members, references, mixes with their
 * tracklists, follows, saves, listens. The mixes go in as drafts (no published date, no audio yet), which nobody but
 * their owner sees (docs/permissions.md#owners): each is published by `publishDemoMix` once its MP3 is stored, so no
 * visitor meets a mix that cannot play. A build that stopped midway may have left the reference tracks: they are
 * written afresh.
 */
export async function writeDemoRows(orm: Orm, world: PlannedWorld, now: number): Promise<void> {
  const passwordHash = await bcrypt.hash(DEMO_PASSWORD, BCRYPT_COST);
  const ago = (days: number) => new Date(now - days * DAY_MS);
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
        createdAt: ago(400),
      });
    }
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
      em.create(Mix, {
        id: mix.id,
        owner: mix.ownerId,
        title: mix.title,
        genre: mix.genre,
        cover: mix.cover,
        mp3: mix.mp3,
        durationSeconds: mix.durationSeconds,
        bitrate: MIX_BITRATE,
        // Measured from the samples when the audio is made (see publishDemoMix): no waveform job is due for it.
        waveformState: 'ready',
        latitude: mix.latitude,
        longitude: mix.longitude,
        status: 'draft',
        playCount: plays.get(mix.id) ?? 0,
        createdAt: new Date(ago(mix.publishedDaysAgo).getTime() - 60 * 60 * 1000),
        // A draft's time to be removed runs from its last change (DRAFT_TTL_DAYS): this one is new.
        updatedAt: new Date(now),
      });
      const version = em.create(TracklistVersion, { mix: mix.id, number: 1, createdAt: ago(mix.publishedDaysAgo) });
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
      // Shown only once the mix is (library.service's currentMix asks the mix's visibility).
      user.currentMix = em.getReference(Mix, current.mixId);
      user.currentMixPos = current.position;
    }
  });
}

/**
 * Publishes a demo mix whose MP3 is stored: its audio's facts, and the date the plan gives it (with its hosting
 * period from then, as a paid publication has). From here the feed shows it, by the one visibility rule
 * (mix.policy.ts VISIBLE_MIX_SQL). A mix published already is left as it is.
 */
export async function publishDemoMix(orm: Orm, mix: PlannedMix, facts: RenderedFacts, now: number): Promise<void> {
  const publishedAt = new Date(now - mix.publishedDaysAgo * DAY_MS);
  await orm.em.fork().nativeUpdate(
    Mix,
    { id: mix.id, status: 'draft' },
    {
      status: 'published',
      publishedAt,
      expiresAt: hostingEnds(publishedAt),
      audioBytes: facts.bytes,
      durationSeconds: facts.durationSeconds,
      peaks: facts.peaks,
      updatedAt: publishedAt,
    },
  );
}

/**
 * The demo mixes a build left unpublished (a process killed midway): by their index in the plan. The next start
 * makes their audio and publishes them.
 */
export async function unpublishedDemoMixes(orm: Orm, world: PlannedWorld): Promise<number[]> {
  const rows = await orm.em
    .fork()
    .getConnection()
    .execute<{ id: string }[]>(`select id from mix where id in (?) and status = 'draft' and published_at is null and audio_bytes = 0`, [
      world.mixes.map((mix) => mix.id),
    ]);
  const ids = new Set(rows.map((row) => row.id));
  return world.mixes.flatMap((mix, index) => (ids.has(mix.id) ? [index] : []));
}
