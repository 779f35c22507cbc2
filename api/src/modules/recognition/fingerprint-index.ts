// Where fingerprints are looked up. The matcher needs one thing of an index: the entries stored under a hash key.
// PostgreSQL is the source of truth (one row per entry: hash int4, track int4, data int4, indexed on hash); the
// in-memory index below is built from those rows (or straight from fingerprints) for fast lookups.

import { entryRoot, type Fingerprints, HASH_SPACE } from './fingerprint.js';

/** Receives the entries under one hash key: the track number and the packed entry (see packEntry). */
export interface EntryVisitor {
  visit(track: number, data: number): void;
}

export interface FingerprintIndex {
  /** Calls `visitor.visit` once per entry stored under the hash keys from `first` to `last` (both included). */
  lookup(first: number, last: number, visitor: EntryVisitor): void;
  /** Entries in the index. */
  readonly size: number;
  /**
   * A track's root peaks (see entryRoot), distinct and in time order: where its music has peaks, which lets the matcher
   * check a found track's line peak by peak where too few quads survive (a track fading in under another).
   */
  rootsOf?(track: number): Uint32Array | undefined;
}

/**
 * Collects fingerprints (per track number, or as raw rows), then builds a MemoryIndex: entries grouped by hash in
 * two flat arrays (8 bytes per entry) and one offset per possible hash key (HASH_SPACE + 1 of them, 80 MB) - a
 * lookup is two array reads.
 */
export class IndexBuilder {
  private hashes = new Uint32Array(1 << 16);
  private tracks = new Uint32Array(1 << 16);
  private data = new Uint32Array(1 << 16);
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(track: number, fingerprints: Pick<Fingerprints, 'hashes' | 'data'>) {
    const n = fingerprints.hashes.length;
    this.reserve(n);
    this.hashes.set(fingerprints.hashes, this.count);
    this.data.set(fingerprints.data, this.count);
    this.tracks.fill(track, this.count, this.count + n);
    this.count += n;
  }

  /** One stored row, as read back from the database (`data` signed or unsigned: the same 32 bits). */
  addRow(hash: number, track: number, data: number) {
    this.reserve(1);
    this.hashes[this.count] = hash;
    this.tracks[this.count] = track;
    this.data[this.count] = data >>> 0;
    this.count += 1;
  }

  /** Stored rows as parallel arrays (`data` signed or unsigned). */
  addRows(hashes: ArrayLike<number>, tracks: ArrayLike<number>, data: ArrayLike<number>) {
    const n = hashes.length;
    this.reserve(n);
    this.hashes.set(hashes, this.count);
    this.tracks.set(tracks, this.count);
    for (let i = 0; i < n; i += 1) this.data[this.count + i] = (data[i] as number) >>> 0;
    this.count += n;
  }

  /** Room for `more` entries (saves growing step by step when the count is known). */
  reserve(more: number) {
    if (this.count + more <= this.hashes.length) return;
    const capacity = Math.max(this.hashes.length * 2, this.count + more);
    for (const name of ['hashes', 'tracks', 'data'] as const) {
      const grown = new Uint32Array(capacity);
      grown.set(this[name].subarray(0, this.count));
      this[name] = grown;
    }
  }

  build(): MemoryIndex {
    const n = this.count;
    const offsets = new Uint32Array(HASH_SPACE + 1);
    const { hashes } = this;
    for (let i = 0; i < n; i += 1) {
      const hash = hashes[i];
      if (hash >= HASH_SPACE) throw new Error(`hash ${hash} out of range`);
      offsets[hash + 1] += 1;
    }
    for (let h = 0; h < HASH_SPACE; h += 1) offsets[h + 1] += offsets[h];
    const roots = rootsByTrack(this.tracks, this.data, n);
    const cursor = offsets.slice(0, HASH_SPACE);
    const tracks = new Uint32Array(n);
    const data = new Uint32Array(n);
    for (let i = 0; i < n; i += 1) {
      const at = cursor[hashes[i]]++;
      tracks[at] = this.tracks[i];
      data[at] = this.data[i];
    }
    // The builder's arrays can go now.
    this.hashes = new Uint32Array(0);
    this.tracks = new Uint32Array(0);
    this.data = new Uint32Array(0);
    this.count = 0;
    const occupied = new Uint32Array((HASH_SPACE >>> 5) + 1);
    for (let h = 0; h < HASH_SPACE; h += 1) if (offsets[h + 1] !== offsets[h]) occupied[h >>> 5] |= 1 << (h & 31);
    return new MemoryIndex(offsets, tracks, data, roots, occupied);
  }
}

/** Each track's distinct root peaks in time order (entries arrive track by track: one run of entries per track). */
function rootsByTrack(tracks: Uint32Array, data: Uint32Array, n: number): Map<number, Uint32Array> {
  const runs = new Map<number, Uint32Array[]>();
  for (let start = 0; start < n; ) {
    const track = tracks[start] as number;
    let end = start + 1;
    while (end < n && tracks[end] === track) end += 1;
    const run = new Uint32Array(end - start);
    for (let i = start; i < end; i += 1) run[i - start] = entryRoot(data[i] as number);
    runs.set(track, [...(runs.get(track) ?? []), run]);
    start = end;
  }
  const roots = new Map<number, Uint32Array>();
  for (const [track, parts] of runs) {
    const all = new Uint32Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      all.set(part, at);
      at += part.length;
    }
    all.sort();
    let kept = 0;
    for (let i = 0; i < all.length; i += 1) if (i === 0 || all[i] !== all[kept - 1]) all[kept++] = all[i] as number;
    roots.set(track, all.slice(0, kept));
  }
  return roots;
}

export class MemoryIndex implements FingerprintIndex {
  constructor(
    private readonly offsets: Uint32Array,
    private readonly tracks: Uint32Array,
    private readonly data: Uint32Array,
    private readonly roots: Map<number, Uint32Array>,
    /**
     * One bit per hash key: whether it holds any entry. Most keys a query probes hold none (a few per cent of the
     * 20 M keys are used at 3 reference hours, a third at 100): this 2.5 MB bitmap answers them from the CPU's cache,
     * where the 80 MB offset table costs a memory read, a quarter of a query's matching time.
     */
    private readonly occupied: Uint32Array,
  ) {}

  get size(): number {
    return this.tracks.length;
  }

  /** Bytes held: the entries, the offset table and its bitmap, and the tracks' root peaks. */
  get bytes(): number {
    let roots = 0;
    for (const list of this.roots.values()) roots += list.byteLength;
    return this.offsets.byteLength + this.occupied.byteLength + this.tracks.byteLength + this.data.byteLength + roots;
  }

  rootsOf(track: number): Uint32Array | undefined {
    return this.roots.get(track);
  }

  lookup(first: number, last: number, visitor: EntryVisitor) {
    const { occupied } = this;
    let used = false;
    for (let key = first; key <= last && !used; key += 1) used = ((occupied[key >>> 5] as number) & (1 << (key & 31))) !== 0;
    if (!used) return;
    const { tracks, data } = this;
    // Entries are grouped by key in key order: a run of keys is one stretch of the arrays (two reads of the offsets).
    const end = this.offsets[last + 1];
    for (let i = this.offsets[first]; i < end; i += 1) visitor.visit(tracks[i], data[i]);
  }

  /** How many entries each hash key holds, for statistics (e.g. synthetic distractors with the same distribution). */
  bucketSize(hash: number): number {
    return this.offsets[hash + 1] - this.offsets[hash];
  }
}
