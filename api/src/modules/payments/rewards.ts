import { MIN_REWARDED_LISTEN_SECONDS } from './payment.policy.js';

/**
 * Creator rewards, user-centric: each subscriber's creators' share goes to the creators of the tracks that subscriber
 * listened to in the paid period, in proportion to the time listened to each track (Deezer's user-centric payment
 * system and SoundCloud's fan-powered royalties; not a pro-rata pool of everyone's plays). Pure functions: the
 * settle-rewards command reads the rows and writes what these return.
 */

export interface TracklistEntry {
  trackId: string;
  creators: { key: string; name: string }[];
  startTime: number | null;
  endTime: number | null;
}

export interface ListenedMix {
  /** Seconds listened (from the listen's start to its end). */
  seconds: number;
  durationSeconds: number | null;
  tracklist: TracklistEntry[];
}

/**
 * The seconds of one listen credited to each track of the mix. A listen records wall-clock start and end only, so it
 * is taken to play the mix from its start. Where every entry has a start time the listen's span is laid over the
 * tracklist (an entry plays from its start to its end time, else to the next entry's start, else to the mix's end);
 * otherwise the listen is split equally across the tracklist. Listens under 30 s credit nothing.
 */
export function secondsPerTrack(listen: ListenedMix): Map<string, number> {
  const credited = new Map<string, number>();
  const { tracklist } = listen;
  if (listen.seconds < MIN_REWARDED_LISTEN_SECONDS || tracklist.length === 0) return credited;
  const add = (trackId: string, seconds: number) => {
    if (seconds > 0) credited.set(trackId, (credited.get(trackId) ?? 0) + seconds);
  };
  const timed = tracklist.every((entry) => entry.startTime !== null);
  if (!timed) {
    for (const entry of tracklist) add(entry.trackId, listen.seconds / tracklist.length);
    return credited;
  }
  const heard = listen.durationSeconds ? Math.min(listen.seconds, listen.durationSeconds) : listen.seconds;
  tracklist.forEach((entry, index) => {
    const start = entry.startTime as number;
    const nextStart = tracklist[index + 1]?.startTime ?? null;
    const end = entry.endTime ?? nextStart ?? listen.durationSeconds ?? Number.POSITIVE_INFINITY;
    add(entry.trackId, Math.max(0, Math.min(end, heard) - start));
  });
  return credited;
}

/**
 * Splits `total` whole cents in proportion to `weights` so the parts add up to exactly `total` (largest remainder,
 * Hamilton's method): each key first gets the floor of its exact share; the cents left over (fewer than there are
 * keys) go one each to the keys with the largest fractional remainders, ties to the key that sorts first. Keys with no
 * weight get nothing; with no weight at all nothing is split (an empty map).
 */
export function splitCents(total: number, weights: ReadonlyMap<string, number>): Map<string, number> {
  const entries = [...weights].filter(([, weight]) => weight > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const sum = entries.reduce((acc, [, weight]) => acc + weight, 0);
  const parts = new Map<string, number>();
  if (sum <= 0 || total <= 0) return parts;
  const shares = entries.map(([key, weight]) => {
    const exact = (total * weight) / sum;
    const whole = Math.floor(exact);
    return { key, whole, remainder: exact - whole };
  });
  let left = total - shares.reduce((acc, share) => acc + share.whole, 0);
  const byRemainder = [...shares].sort((a, b) => b.remainder - a.remainder || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const share of byRemainder) {
    if (left <= 0) break;
    share.whole += 1;
    left -= 1;
  }
  for (const share of shares) parts.set(share.key, share.whole);
  return parts;
}

export interface TrackShare {
  trackId: string;
  cents: number;
  seconds: number;
}

export interface CreatorShare {
  key: string;
  name: string;
  cents: number;
  seconds: number;
  /**
   * The creator's cents split over the tracks that earned them (the same largest-remainder split, weighted by the seconds
   * of each track credited to this creator, ties to the track id that sorts first): they add up to exactly `cents`.
   * A track whose share rounded to nothing keeps its line with 0 cents, so the seconds add up too.
   */
  tracks: TrackShare[];
}

/**
 * One subscriber's period: the creators' share (`poolCents`) split over the creators of the tracks they listened to,
 * each creator weighted by the seconds credited to their tracks (a track's seconds shared equally among its creators),
 * with one `splitCents`, so the creators' cents add up to exactly `poolCents` and leftover cents go by remainder, then
 * creator key. Each creator's cents are then split over their tracks the same way. Nothing listened: no creator gets
 * anything (the caller records the pool as unallocated).
 */
export function allocateSubscriber(poolCents: number, listens: ListenedMix[]): CreatorShare[] {
  const seconds = new Map<string, number>();
  const perTrack = new Map<string, Map<string, number>>();
  const names = new Map<string, string>();
  for (const listen of listens) {
    const creatorsOf = new Map(listen.tracklist.map((entry) => [entry.trackId, entry.creators]));
    for (const [trackId, trackSeconds] of secondsPerTrack(listen)) {
      // A track with no named creator earns nothing for anyone: its seconds are left out of the split.
      const creators = [...new Map((creatorsOf.get(trackId) ?? []).map((creator) => [creator.key, creator])).values()];
      for (const creator of creators) {
        const share = trackSeconds / creators.length;
        seconds.set(creator.key, (seconds.get(creator.key) ?? 0) + share);
        const tracks = perTrack.get(creator.key) ?? new Map<string, number>();
        tracks.set(trackId, (tracks.get(trackId) ?? 0) + share);
        perTrack.set(creator.key, tracks);
        names.set(creator.key, creator.name);
      }
    }
  }
  // A creator whose share rounded to nothing gets no ledger line (the cent went to a larger remainder).
  return [...splitCents(poolCents, seconds)]
    .filter(([, cents]) => cents > 0)
    .map(([key, cents]) => {
      const trackSeconds = perTrack.get(key) ?? new Map<string, number>();
      const trackCents = splitCents(cents, trackSeconds);
      const tracks = [...trackSeconds]
        .filter(([, weight]) => weight > 0)
        .map(([trackId, weight]) => ({ trackId, cents: trackCents.get(trackId) ?? 0, seconds: weight }))
        .sort((a, b) => b.cents - a.cents || (a.trackId < b.trackId ? -1 : 1));
      return { key, name: names.get(key) ?? key, cents, seconds: seconds.get(key) ?? 0, tracks };
    })
    .sort((a, b) => b.cents - a.cents || (a.key < b.key ? -1 : 1));
}

export { creatorKey } from '../tracks/index.js';
