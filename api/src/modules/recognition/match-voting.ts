// Candidate voting: the matches of the last blocks, and per track the place in its reference they most agree on.

import type { Point } from './match-lines.js';
import { FRAMES_PER_SECOND, type MatcherSettings } from './matcher-settings.js';

/** Counts per non-negative integer key, in an open-addressing table that is cleared between uses. */
export class Counter {
  private keys = new Float64Array(1 << 14).fill(-1);
  private counts = new Int32Array(1 << 14);
  private used: number[] = [];

  private slotOf(key: number, mask: number): number {
    return (Math.imul((key % 1_073_741_824) | 0, 0x9e3779b1) ^ Math.floor(key / 1_073_741_824)) & mask;
  }

  add(key: number, count = 1) {
    if (this.used.length * 2 > this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    let slot = this.slotOf(key, mask);
    for (;;) {
      const at = this.keys[slot];
      if (at === key) {
        this.counts[slot] += count;
        return;
      }
      if (at === -1) {
        this.keys[slot] = key;
        this.counts[slot] = count;
        this.used.push(slot);
        return;
      }
      slot = (slot + 1) & mask;
    }
  }

  get(key: number): number {
    const mask = this.keys.length - 1;
    let slot = this.slotOf(key, mask);
    for (;;) {
      const at = this.keys[slot];
      if (at === key) return this.counts[slot];
      if (at === -1) return 0;
      slot = (slot + 1) & mask;
    }
  }

  /** Calls `visit` for every key counted (`get` still works meanwhile), then forgets them all. */
  drain(visit: (key: number, count: number) => void) {
    for (const slot of this.used) visit(this.keys[slot], this.counts[slot]);
    for (const slot of this.used) this.keys[slot] = -1;
    this.used = [];
  }

  private grow() {
    const old = this.used.map((slot) => [this.keys[slot], this.counts[slot]] as const);
    this.keys = new Float64Array(this.keys.length * 2).fill(-1);
    this.counts = new Int32Array(this.keys.length);
    this.used = [];
    for (const [key, count] of old) this.add(key, count);
  }
}

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
 * (the start its line would have), for the 24 best-voted tracks; `votes` is scratch space, empty again on return.
 */
export function votedCandidates(
  blocks: readonly MatchBlock[],
  origin: number,
  votes: Counter,
  settings: MatcherSettings,
): Map<number, { bin: number; points: Point[] }> {
  const binFrames = FRAMES_PER_SECOND;
  for (const block of blocks) {
    for (let i = 0; i < block.count; i += 1) {
      const start = block.referenceTime[i] - block.speed[i] * (block.queryTime[i] - origin);
      votes.add(block.track[i] * 8192 + Math.floor(start / binFrames) + 64);
    }
  }
  // Per track, its best-voted place.
  const best = new Map<number, { bin: number; votes: number }>();
  votes.drain((key, count) => {
    if (count < settings.minVotes) return;
    const track = Math.floor(key / 8192);
    const bin = key - track * 8192;
    const around = count + Math.max(votes.get(key - 1), votes.get(key + 1));
    const known = best.get(track);
    if (!known || around > known.votes) best.set(track, { bin, votes: around });
  });
  const candidates = [...best.entries()].sort((a, b) => b[1].votes - a[1].votes).slice(0, 24);
  if (candidates.length === 0) return new Map();
  const wanted = new Map(candidates.map(([track, { bin }]) => [track, { bin, points: [] as Point[] }]));
  for (const block of blocks) {
    for (let i = 0; i < block.count; i += 1) {
      const entry = wanted.get(block.track[i]);
      if (!entry) continue;
      const start = block.referenceTime[i] - block.speed[i] * (block.queryTime[i] - origin);
      const bin = Math.floor(start / binFrames) + 64;
      if (Math.abs(bin - entry.bin) > 1) continue;
      entry.points.push({
        q: block.queryTime[i],
        r: block.referenceTime[i],
        v: block.speed[i],
        p: block.pitch[i],
        root: block.rootPitch[i],
      });
    }
  }
  return wanted;
}
