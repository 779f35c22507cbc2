import { GENRE_CODES, type GenreCode, USER_TYPE_CODES, type UserTypeCode } from '../shared/domain.js';
import { Random } from '../shared/random.js';
import { DEMO_SEED, stableFileName, stableUuid } from './seed.js';
import { type ReferenceRecipe, referenceRecipe } from './synth.js';
import { ADJECTIVES, ARTISTS, BIOS, CITIES, type Continent, DJ_ALIASES, FIRST_NAMES, LABELS, LAST_NAMES, NOUNS } from './words.js';

export const DEMO_PASSWORD = 'Mixcrate1!';
export const DEMO_DOMAIN = 'demo.mixcrate.app';
export const DEMO_LOGINS = {
  dj: { email: `dj@${DEMO_DOMAIN}`, password: DEMO_PASSWORD },
  listener: { email: `listener@${DEMO_DOMAIN}`, password: DEMO_PASSWORD },
} as const;

/**
 * The demo logins as a start or `demo:reset` logs them: with their password outside production; under production only
 * the addresses, since a production log is read by more people and kept longer than a development terminal.
 */
export function demoLoginsToLog(isProduction: boolean): { dj: string; listener: string } {
  const shown = (login: { email: string; password: string }) => (isProduction ? login.email : `${login.email} / ${login.password}`);
  return { dj: shown(DEMO_LOGINS.dj), listener: shown(DEMO_LOGINS.listener) };
}

export const MEMBER_COUNT = 64;
export const REFERENCE_COUNT = 72;
/**
 * Three mixes in each of the 21 genres: every genre filled, more than three pages of the home feed, and the first
 * start's work (encoding a mix is most of it, its time grows with the seconds encoded) halved from six.
 */
export const MIXES_PER_GENRE = 3;
/**
 * The members who upload the mixes (the demo DJ and the first uploaders after her): few enough that each owns several
 * mixes, as a DJ's profile does, many enough to span every uploading user type.
 */
export const MIX_OWNER_COUNT = 16;
/**
 * How long a demo reference lasts (a radio edit's length): the mixes take 16 to 53 s from each, and fingerprinting,
 * a third of the first start's work, grows with the seconds fingerprinted. The synthesiser repeats a phrase of a few
 * seconds through a 3-5 section arrangement, so a longer reference would add repeats, not new music.
 */
export const REFERENCE_SECONDS = { min: 60, max: 75 } as const;
/** Seconds of equal-power crossfade between two tracks of a mix. */
export const CROSSFADE_SECONDS = 6;
/**
 * The demo mixes' MP3s: mono at 16 kHz (MPEG-2 Layer III), 64 kbps. Encoding is most of the demo world's build and
 * LAME's time grows with the samples it encodes: against 22,050 Hz this is 60 % of the work, for synthesised music
 * that loses only what lay between 8 and 11 kHz (recognition listens below 4 kHz). A lower rate (11,025 Hz) would be
 * MPEG 2.5, which not every player takes. At a given rate LAME works less the more bits it may spend (fewer rounds of
 * fitting each frame into its budget): 64 kbps costs 20 % less CPU than 40 kbps (0.38 against 0.47 CPU s per mix),
 * for files 60 % larger (about 1 MB a mix) that sound better.
 */
export const MIX_SAMPLE_RATE = 16_000;
export const MIX_BITRATE = 64;

export interface PlannedMember {
  id: string;
  email: string;
  userName: string;
  displayName: string;
  userType: UserTypeCode;
  bio: string;
  city: string;
  continent: Continent;
  latitude: number;
  longitude: number;
  avatar: string;
  /** Days before the load that the member joined. */
  joinedDaysAgo: number;
  favouriteGenre: GenreCode;
}

export interface PlannedReference {
  index: number;
  /** The catalogue track this reference is (a stable id: the recognition tests look it up). */
  trackId: string;
  title: string;
  creators: string[];
  label: string;
  cover: string;
  newRelease: boolean;
  recipe: ReferenceRecipe;
}

export interface PlannedSegment {
  reference: number;
  /** Seconds into the reference where the segment's audio is taken from. */
  sourceStart: number;
  /** Seconds into the mix: from the start of its fade-in to the end of its fade-out. */
  startTime: number;
  endTime: number;
}

export interface PlannedMix {
  id: string;
  ownerId: string;
  title: string;
  genre: GenreCode;
  durationSeconds: number;
  cover: string;
  mp3: string;
  publishedDaysAgo: number;
  latitude: number;
  longitude: number;
  segments: PlannedSegment[];
}

export interface PlannedWorld {
  members: PlannedMember[];
  references: PlannedReference[];
  mixes: PlannedMix[];
  follows: [follower: string, followee: string][];
  savedMixes: { userId: string; mixId: string; daysAgo: number }[];
  savedTracks: { userId: string; trackId: string; daysAgo: number }[];
  listens: { mixId: string; userId: string | null; daysAgo: number; seconds: number }[];
  /** The mix each member's player remembers, and where in it (as if they had paused it there). */
  currentMixes: { userId: string; mixId: string; position: number }[];
}

const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .toLowerCase();

function planMembers(random: Random): PlannedMember[] {
  const cities = [...CITIES];
  return Array.from({ length: MEMBER_COUNT }, (_, index) => {
    // The two demo logins come first: a DJ in Berlin and a listener in London.
    const city = index === 0 ? cities[0] : index === 1 ? cities[1] : (cities[index % cities.length] ?? cities[0]);
    const userType = index === 0 ? 'dj' : index === 1 ? 'listener' : (USER_TYPE_CODES[index % USER_TYPE_CODES.length] as UserTypeCode);
    const first = FIRST_NAMES[index % FIRST_NAMES.length] as string;
    const last = LAST_NAMES[(index * 7) % LAST_NAMES.length] as string;
    const isDj = userType === 'dj' || userType === 'dj-creator';
    const displayName = isDj && index % 3 !== 0 ? (DJ_ALIASES[index % DJ_ALIASES.length] as string) : `${first} ${last}`;
    const favouriteGenre = GENRE_CODES[(index * 5) % GENRE_CODES.length] as GenreCode;
    const place = city ?? CITIES[0];
    if (!place) throw new Error('no cities');
    const bio = (random.pick(BIOS) as string).replace('{genre}', favouriteGenre.replace(/_/g, ' ')).replace('{city}', place.name);
    const userName = index === 0 ? 'demo_dj' : index === 1 ? 'demo_listener' : `${slug(displayName)}_${index}`.slice(0, 30);
    return {
      id: stableUuid(`member:${index}`),
      email: index === 0 ? DEMO_LOGINS.dj.email : index === 1 ? DEMO_LOGINS.listener.email : `${userName}@${DEMO_DOMAIN}`,
      userName,
      displayName: index === 0 ? 'Ana Kraus' : displayName,
      userType,
      bio: bio.slice(0, 180),
      city: place.name,
      continent: place.continent,
      // A little apart from the city centre, so neighbours are a few km apart, not zero.
      latitude: place.latitude + random.between(-0.05, 0.05),
      longitude: place.longitude + random.between(-0.05, 0.05),
      avatar: stableFileName(`avatar:${index}`, 'jpg'),
      joinedDaysAgo: random.int(120, 900),
      favouriteGenre,
    };
  });
}

/** The catalogue track of reference `index` (a stable id: recognition tests look references up by it). */
export const referenceTrackId = (index: number) => stableUuid(`reference:${index}`);

const referenceIndexes = new Map(Array.from({ length: REFERENCE_COUNT }, (_, index) => [referenceTrackId(index), index]));

/** Which reference a demo catalogue track is (for `renderReference`), or null for any other track. */
export const referenceIndexOfTrack = (trackId: string): number | null => referenceIndexes.get(trackId) ?? null;

/**
 * A reference's length in the demo world: its recipe's own (150 to 230 s) folded into REFERENCE_SECONDS, so it varies
 * by reference without a draw from the plan's sequence (which would change every title drawn after it).
 */
const referenceSeconds = (recipe: ReferenceRecipe) =>
  REFERENCE_SECONDS.min + (recipe.durationSeconds % (REFERENCE_SECONDS.max - REFERENCE_SECONDS.min + 1));

function planReferences(random: Random, seed: number): PlannedReference[] {
  return Array.from({ length: REFERENCE_COUNT }, (_, index) => {
    const featured = random.chance(0.25) ? [random.pick(ARTISTS)] : [];
    const recipe = referenceRecipe(seed, index);
    return {
      index,
      trackId: referenceTrackId(index),
      title: `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}${random.chance(0.3) ? ` (${random.pick(['Dub', 'Extended', 'Club', 'Night'])} Mix)` : ''}`,
      creators: [...new Set([ARTISTS[index % ARTISTS.length] as string, ...featured])],
      label: random.pick(LABELS),
      cover: stableFileName(`track-cover:${index}`, 'jpg'),
      newRelease: random.chance(0.15),
      recipe: { ...recipe, durationSeconds: referenceSeconds(recipe) },
    };
  });
}

/** References a genre's mixes draw from: a window that slides three references per genre (shared with neighbours). */
export function referencePool(genreIndex: number): number[] {
  return Array.from({ length: 12 }, (_, offset) => (genreIndex * 3 + offset) % REFERENCE_COUNT);
}

function planMixes(random: Random, members: PlannedMember[], references: PlannedReference[]): PlannedMix[] {
  const owners = members
    .filter((member) => ['dj', 'dj-creator', 'creator', 'artist', 'label', 'promoter'].includes(member.userType))
    .slice(0, MIX_OWNER_COUNT);
  const mixes: PlannedMix[] = [];
  GENRE_CODES.forEach((genre, genreIndex) => {
    for (let number = 0; number < MIXES_PER_GENRE; number += 1) {
      const index = mixes.length;
      // Every owner takes every sixteenth mix (7 is prime to their count), in varied genres: the demo DJ, first of
      // them, owns mixes 0, 16, 32 and 48.
      const owner = owners[(index * 7) % owners.length];
      if (!owner) throw new Error('no mix owners');
      const long = random.chance(0.12);
      // From 121 s: MP3 readers that estimate the length (music-metadata) say about 0.2 s short, still two minutes.
      const durationSeconds = long ? random.int(180, 240) : random.int(121, 130);
      const count = Math.min(12, Math.max(5, random.int(5, Math.floor(durationSeconds / 16))));
      const segmentSeconds = (durationSeconds + (count - 1) * CROSSFADE_SECONDS) / count;
      const chosen = random.sample(referencePool(genreIndex), count);
      const segments = chosen.map((reference, position) => {
        const recipe = references[reference]?.recipe;
        if (!recipe) throw new Error(`no reference ${reference}`);
        const startTime = position * (segmentSeconds - CROSSFADE_SECONDS);
        return {
          reference,
          sourceStart: Math.round(random.between(0, recipe.durationSeconds - segmentSeconds) * 100) / 100,
          startTime: Math.round(startTime * 100) / 100,
          endTime: Math.round(Math.min(durationSeconds, startTime + segmentSeconds) * 100) / 100,
        };
      });
      const title = `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)} ${random.pick(['Session', 'Mix', 'Set', 'Sessions', 'Journey', 'Selection'])}${random.chance(0.3) ? ` Vol. ${random.int(2, 9)}` : ''}`;
      mixes.push({
        id: stableUuid(`mix:${index}`),
        ownerId: owner.id,
        title,
        genre,
        durationSeconds,
        cover: stableFileName(`mix-cover:${index}`, 'jpg'),
        mp3: stableFileName(`mix-audio:${index}`, 'mp3'),
        // A few this week (the 'New' badge), the rest over the past months.
        publishedDaysAgo: index % 9 === 0 ? random.between(0.1, 6) : random.between(7, 200),
        latitude: owner.latitude,
        longitude: owner.longitude,
        segments,
      });
    }
  });
  return mixes;
}

/** The whole demo world, decided by the seed (no audio or images yet: those are rendered from this plan). */
export function planWorld(seed = DEMO_SEED): PlannedWorld {
  const random = new Random(seed);
  const members = planMembers(random);
  const references = planReferences(random, seed);
  const mixes = planMixes(random, members, references);
  const [dj, listener] = members;
  if (!dj || !listener) throw new Error('the demo world needs its two logins');

  const follows = new Map<string, [string, string]>();
  const follow = (follower: string, followee: string) => {
    if (follower !== followee) follows.set(`${follower}>${followee}`, [follower, followee]);
  };
  for (const member of members) {
    for (const other of random.sample(members, random.int(3, 10))) follow(member.id, other.id);
    if (random.chance(0.6)) follow(member.id, dj.id);
  }
  for (const owner of new Set(mixes.map((mix) => mix.ownerId))) if (random.chance(0.7)) follow(listener.id, owner);
  follow(dj.id, listener.id);

  const savedMixes: PlannedWorld['savedMixes'] = [];
  const savedTracks: PlannedWorld['savedTracks'] = [];
  const listens: PlannedWorld['listens'] = [];
  const currentMixes: PlannedWorld['currentMixes'] = [];
  for (const member of members) {
    const saves = random.sample(mixes, member.id === listener.id ? 12 : random.int(2, 8));
    for (const mix of saves)
      savedMixes.push({ userId: member.id, mixId: mix.id, daysAgo: random.between(0, Math.min(60, mix.publishedDaysAgo)) });
    const current = random.pick(saves);
    currentMixes.push({ userId: member.id, mixId: current.id, position: Math.round(random.between(0, current.durationSeconds / 2)) });
    for (const reference of random.sample(references, random.int(1, 6)))
      savedTracks.push({ userId: member.id, trackId: reference.trackId, daysAgo: random.between(0, 60) });
    for (const mix of random.sample(mixes, random.int(4, 14))) {
      listens.push({
        mixId: mix.id,
        userId: member.id,
        daysAgo: random.between(0, mix.publishedDaysAgo),
        seconds: random.between(20, mix.durationSeconds),
      });
    }
  }
  for (const mix of mixes) {
    for (let anonymous = random.int(0, 4); anonymous > 0; anonymous -= 1)
      listens.push({
        mixId: mix.id,
        userId: null,
        daysAgo: random.between(0, mix.publishedDaysAgo),
        seconds: random.between(10, mix.durationSeconds),
      });
  }
  return { members, references, mixes, follows: [...follows.values()], savedMixes, savedTracks, listens, currentMixes };
}
