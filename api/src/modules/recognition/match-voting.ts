// Candidate voting: the matches of the last blocks, and per track the place in its reference they most agree on.

import type { Point } from './match-lines.js';
import { FRAMES_PER_SECOND, type MatcherSettings } from './matcher-settings.js';

/**
 * Scratch space of votedCandidates, reused from window to window: per track number, its matches in the window (then
 * where they go in `grouped`); the tracks met, in the order first met; and the window's matches grouped by track, each
 * with its block, its place in the block and the reference second it votes for. `perTrack` grows to the largest track
 * number met (4 bytes each: 4 MB for a million references), the rest to the largest window.
 */
export class VoteScratch {
  perTrack = new Int32Array(1024);
  met = new Int32Array(1024);
  metCount = 0;
  groupedBlock = new Uint8Array(4096);
  groupedIndex = new Int32Array(4096);
  groupedBin = new Int32Array(4096);
  /** One track's votes as bin x 2^32 + the match's place in the window, sorted to find its runs of equal bins. */
  sorted = new Float64Array(4096);

  /** Counts a match of `track`; a track met for the first time is remembered. */
  count(track: number) {
    if (track >= this.perTrack.length) this.perTrack = grown(this.perTrack, track + 1);
    if (this.perTrack[track] === 0) {
      if (this.metCount === this.met.length) this.met = grown(this.met, this.metCount + 1);
      this.met[this.metCount] = track;
      this.metCount += 1;
    }
    this.perTrack[track] += 1;
  }

  /** Room for a window of `matches` matches. */
  reserve(matches: number) {
    if (matches <= this.groupedIndex.length) return;
    const size = Math.max(matches, 2 * this.groupedIndex.length);
    this.groupedBlock = new Uint8Array(size);
    this.groupedIndex = new Int32Array(size);
    this.groupedBin = new Int32Array(size);
    this.sorted = new Float64Array(size);
  }

  /** Forgets the window's tracks. */
  clear() {
    for (let i = 0; i < this.metCount; i += 1) this.perTrack[this.met[i] as number] = 0;
    this.metCount = 0;
  }
}

function grown<T extends Int32Array>(array: T, atLeast: number): T {
  const next = new (array.constructor as new (size: number) => T)(Math.max(atLeast, 2 * array.length));
  next.set(array);
  return next;
}

/**
 * A match's place in the window is below 2^32 (a block's arrays hold fewer), and a bin below 2^13 (references last at
 * most 2^18 frames, about 70 minutes): bin x 2^32 + place is exact in a double, and votes sort by bin, then by place.
 */
const PLACES = 2 ** 32;

/** Matches of one block, as parallel arrays. */
export class MatchBlock {
  track = new Uint32Array(1024);
  queryTime = new Float32Array(1024);
  referenceTime = new Float32Array(1024);
  speed = new Float32Array(1024);
  pitch = new Float32Array(1024);
  rootPitch = new Float32Array(1024);
  count = 0;

  constructor(readonly index: number) {}

  add(track: number, queryTime: number, referenceTime: number, speed: number, pitch: number, rootPitch: number) {
    if (this.count === this.track.length) this.grow();
    const i = this.count;
    this.track[i] = track;
    this.queryTime[i] = queryTime;
    this.referenceTime[i] = referenceTime;
    this.speed[i] = speed;
    this.pitch[i] = pitch;
    this.rootPitch[i] = rootPitch;
    this.count += 1;
  }

  private grow() {
    const size = this.track.length * 2;
    const grow = <T extends Float32Array | Uint32Array>(array: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(array);
      return next;
    };
    this.track = grow(this.track, (n) => new Uint32Array(n));
    this.queryTime = grow(this.queryTime, (n) => new Float32Array(n));
    this.referenceTime = grow(this.referenceTime, (n) => new Float32Array(n));
    this.speed = grow(this.speed, (n) => new Float32Array(n));
    this.pitch = grow(this.pitch, (n) => new Float32Array(n));
    this.rootPitch = grow(this.rootPitch, (n) => new Float32Array(n));
  }
}

/**
 * Per track, the matches of the window starting at frame `origin` that agree on its best-voted place in the reference
 * (the start its line would have), for the 24 best-voted tracks, best first.
 *
 * Each match votes for the second of the reference its line would start at; a place needs `minVotes` votes itself, and
 * the better of its two neighbours' votes add to it. A track's best place is the one with the most; among equals, the
 * one voted for first. Tracks with equal votes keep the order in which their first such place was voted for.
 *
 * Counting happens per track, on the window's matches grouped by track: at 1,000 reference hours a window holds some
 * 100,000 matches, nearly all chance hits spread over thousands of tracks, and a table of (track, second) counts for
 * them all was most of a query's voting time. A track with fewer matches than `minVotes` cannot have a place; the
 * others sort their few votes.
 */
export function votedCandidates(
  blocks: readonly MatchBlock[],
  origin: number,
  scratch: VoteScratch,
  settings: MatcherSettings,
): Map<number, { bin: number; points: Point[] }> {
  const binFrames = FRAMES_PER_SECOND;
  const { minVotes } = settings;
  let total = 0;
  for (const block of blocks) {
    for (let i = 0; i < block.count; i += 1) scratch.count(block.track[i] as number);
    total += block.count;
  }
  scratch.reserve(total);
  const { perTrack, met, metCount } = scratch;
  // Where each track with enough matches begins in `grouped`; -1 for the others.
  let next = 0;
  for (let m = 0; m < metCount; m += 1) {
    const track = met[m] as number;
    const count = perTrack[track] as number;
    if (count < minVotes) perTrack[track] = -1;
    else {
      perTrack[track] = next;
      next += count;
    }
  }
  const { groupedBlock, groupedIndex, groupedBin, sorted } = scratch;
  for (let b = 0; b < blocks.length; b += 1) {
    const block = blocks[b] as MatchBlock;
    for (let i = 0; i < block.count; i += 1) {
      const track = block.track[i] as number;
      const at = perTrack[track] as number;
      if (at < 0) continue;
      perTrack[track] = at + 1;
      const start = (block.referenceTime[i] as number) - (block.speed[i] as number) * ((block.queryTime[i] as number) - origin);
      groupedBlock[at] = b;
      groupedIndex[at] = i;
      groupedBin[at] = Math.floor(start / binFrames) + 64;
    }
  }
  // Each track's matches now end where `perTrack` points; they begin where the track before them ended.
  const candidates: { track: number; from: number; to: number; bin: number; votes: number; firstVoted: number }[] = [];
  const firstPlaces = blocks.map((_, b) => blocks.slice(0, b).reduce((sum, block) => sum + block.count, 0));
  let from = 0;
  for (let m = 0; m < metCount; m += 1) {
    const track = met[m] as number;
    const to = perTrack[track] as number;
    if (to < 0) continue;
    for (let j = from; j < to; j += 1)
      sorted[j] = (groupedBin[j] as number) * PLACES + (firstPlaces[groupedBlock[j] as number] as number) + (groupedIndex[j] as number);
    sorted.subarray(from, to).sort();
    const best = bestPlace(sorted, from, to, minVotes);
    if (best) candidates.push({ track, from, to, ...best });
    from = to;
  }
  scratch.clear();
  candidates.sort((a, b) => b.votes - a.votes || a.firstVoted - b.firstVoted);
  const wanted = new Map<number, { bin: number; points: Point[] }>();
  for (const { track, from, to, bin } of candidates.slice(0, 24)) {
    const points: Point[] = [];
    for (let j = from; j < to; j += 1) {
      if (Math.abs((groupedBin[j] as number) - bin) > 1) continue;
      const block = blocks[groupedBlock[j] as number] as MatchBlock;
      const i = groupedIndex[j] as number;
      points.push({
        q: block.queryTime[i] as number,
        r: block.referenceTime[i] as number,
        v: block.speed[i] as number,
        p: block.pitch[i] as number,
        root: block.rootPitch[i] as number,
      });
    }
    wanted.set(track, { bin, points });
  }
  return wanted;
}

/**
 * One track's best place from its votes sorted (bin x 2^32 + place), or null when no place has `minVotes`; with
 * `firstVoted`, the place in the window of the first vote for any place that has enough.
 */
function bestPlace(
  sorted: Float64Array,
  from: number,
  to: number,
  minVotes: number,
): { bin: number; votes: number; firstVoted: number } | null {
  const binAt = (j: number) => Math.floor((sorted[j] as number) / PLACES);
  let bestBin = 0;
  let bestVotes = -1;
  let bestFirstVote = 0;
  let firstVoted = Number.POSITIVE_INFINITY;
  let previousBin = Number.NaN;
  let previousCount = 0;
  for (let run = from; run < to; ) {
    const bin = binAt(run);
    let end = run + 1;
    while (end < to && binAt(end) === bin) end += 1;
    const count = end - run;
    if (count >= minVotes) {
      // The run is sorted by place: its first vote is the place's first.
      const firstVote = (sorted[run] as number) - bin * PLACES;
      let nextCount = 0;
      while (end + nextCount < to && binAt(end + nextCount) === bin + 1) nextCount += 1;
      const votes = count + Math.max(previousBin === bin - 1 ? previousCount : 0, nextCount);
      if (votes > bestVotes || (votes === bestVotes && firstVote < bestFirstVote)) {
        bestBin = bin;
        bestVotes = votes;
        bestFirstVote = firstVote;
      }
      firstVoted = Math.min(firstVoted, firstVote);
    }
    previousBin = bin;
    previousCount = count;
    run = end;
  }
  return bestVotes < 0 ? null : { bin: bestBin, votes: bestVotes, firstVoted };
}
