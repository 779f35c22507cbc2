// Streaming recognition of a long recording (a DJ mix) against a fingerprint index.
//
// PCM goes in chunk by chunk. Query quads are looked up (with their neighbouring cells), and every hit that could be
// the same music at a DJ's speed (±12%, pitch following the tempo or key-locked) becomes a match: query time, the
// reference's time, the speed its quad spans say, the pitch shift its root says. Matches are kept per 4-second
// block for the last 48 s only, so memory does not grow with the mix's length.
//
// Every 4 s, the last 16 s are examined: per track, matches vote for where in the reference the window begins; the
// best-voted places are then verified: a line (reference time = start + speed x query time) is fitted to the
// matches, and it is accepted only when enough distinct anchors lie on it, spread over several seconds and across
// the spectrum, with one consistent pitch shift that agrees with the speed (turntable) or is nil (key lock). That
// rejects the confident but false matches of four-on-the-floor drums, whose hits agree in time but not on a line.
//
// Accepted windows of one track chain into a segment (a detection). A segment's start is pushed back along its line
// through earlier matches (a track fading in is heard before it dominates) and its end follows the line as long as
// matches keep landing on it (the fade out).

import { ANALYSIS_RATE } from './dsp.js';
import {
  entryPitch,
  entrySpan,
  entryTime,
  FFT_SIZE,
  FingerprintExtractor,
  FRAME_SECONDS,
  MAX_PITCH_SHIFT,
  type Peak,
  probeKeys,
  type Quad,
  rootPitch,
  rootTime,
} from './fingerprint.js';
import type { EntryVisitor, FingerprintIndex } from './fingerprint-index.js';

const FRAMES_PER_SECOND = 1 / FRAME_SECONDS;
/** A frame's time is its window's centre. */
const FRAME_CENTRE = FFT_SIZE / 2 / ANALYSIS_RATE;
export const frameToSeconds = (frame: number) => frame * FRAME_SECONDS + FRAME_CENTRE;

export interface MatcherSettings {
  blockSeconds: number;
  /** Blocks per examined window. */
  windowBlocks: number;
  /** Blocks of matches kept for pushing a new segment's start back. */
  historyBlocks: number;
  /** Speeds considered: 1 ± this. */
  maxSpeedChange: number;
  /** Votes a place needs before it is verified. */
  minVotes: number;
  /** Distinct anchors (query time, reference time) on the line for a window to count. */
  minAnchors: number;
  /** Distinct seconds of the window the anchors must cover. */
  minSeconds: number;
  /** Distinct six-semitone bands the anchors' roots must cover. */
  minBands: number;
  /** Frames off the line a match may be. */
  tolerance: number;
  /** Anchors a whole detection needs. */
  minDetectionAnchors: number;
  /** Seconds without evidence after which a segment is closed. */
  gapSeconds: number;
  /** How far back a new segment's start may move when its track's peaks are found on its line (0: never). */
  refineSeconds: number;
  /** Seconds of the mix judged at a time when moving a start back. */
  refineWindowSeconds: number;
  /** How far above chance (standard deviations) a window's peak coincidences must be to count as the track playing. */
  refineScore: number;
  /** Windows in a row without the track after which the search for an earlier start stops. */
  refineMisses: number;
}

export const DEFAULT_MATCHER_SETTINGS: MatcherSettings = {
  blockSeconds: 4,
  windowBlocks: 4,
  historyBlocks: 12,
  maxSpeedChange: 0.12,
  minVotes: 6,
  minAnchors: 12,
  minSeconds: 4,
  minBands: 2,
  tolerance: 4,
  minDetectionAnchors: 14,
  gapSeconds: 20,
  refineSeconds: 40,
  refineWindowSeconds: 4,
  refineScore: 3,
  refineMisses: 4,
};

/** A query peak coincides with a reference peak this close (frames, semitones). */
const PEAK_FRAMES = 2;
const PEAK_SEMITONES = 0.4;
/** Pitch offsets of the decoy lines that tell how often peaks coincide by chance (off any scale's intervals). */
const DECOY_SHIFTS = [-2.7, -1.3, 1.3, 2.7];
/** Seconds of query peaks kept for moving starts back. */
const PEAK_HISTORY_SECONDS = 120;

/** A track found in the recording (times in seconds of the recording). */
export interface RawDetection {
  /** The track number the fingerprints were stored under. */
  track: number;
  start: number;
  end: number;
  /** 0 to 1. */
  confidence: number;
  /** Playback speed relative to the reference (1.05: 5% faster). */
  speed: number;
  /** Pitch shift in semitones (about 12 log2(speed) on a turntable, 0 with key lock). */
  pitchShift: number;
  /** Where in the reference the detection starts, seconds. */
  referenceStart: number;
  /** Distinct anchors that support it. */
  anchors: number;
}

export interface RecognitionProgress {
  /** Seconds of audio analysed so far. */
  seconds: number;
  /** Detections closed so far (more may follow; overlaps are resolved at the end). */
  detections: number;
}

/** Counts per non-negative integer key, in an open-addressing table that is cleared between uses. */
class Counter {
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
class MatchBlock {
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

interface Point {
  q: number;
  r: number;
  v: number;
  p: number;
  root: number;
}

interface Line {
  /** Reference time (frames) at query time `origin`. */
  at: number;
  origin: number;
  speed: number;
  pitch: number;
}

interface Segment {
  track: number;
  line: Line;
  start: number;
  end: number;
  /** Distinct anchors while the segment is open (dropped when it closes, once counted into `count`). */
  anchors: Set<number>;
  count: number;
  windows: number;
  referenceStart: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** The query's peaks of the last couple of minutes, in time order, to check a line against a track's own peaks. */
class PeakHistory {
  private times = new Float32Array(8192);
  private pitches = new Float32Array(8192);
  private first = 0;
  private count = 0;

  add(peaks: readonly Peak[]) {
    const newest = peaks[peaks.length - 1]?.time ?? 0;
    const horizon = newest - PEAK_HISTORY_SECONDS * FRAMES_PER_SECOND;
    while (this.first < this.count && (this.times[this.first] as number) < horizon) this.first += 1;
    if (this.count + peaks.length > this.times.length) {
      // Compact (and grow when more than half is live).
      const live = this.count - this.first;
      const size = Math.max(this.times.length, 2 * (live + peaks.length));
      const times = new Float32Array(size);
      const pitches = new Float32Array(size);
      times.set(this.times.subarray(this.first, this.count));
      pitches.set(this.pitches.subarray(this.first, this.count));
      this.times = times;
      this.pitches = pitches;
      this.first = 0;
      this.count = live;
    }
    for (const peak of peaks) {
      this.times[this.count] = peak.time;
      this.pitches[this.count] = peak.pitch;
      this.count += 1;
    }
  }

  /** The earliest frame still held. */
  get since(): number {
    return this.first < this.count ? (this.times[this.first] as number) : Number.POSITIVE_INFINITY;
  }

  /** Whether a peak lies within PEAK_FRAMES and PEAK_SEMITONES of (time, pitch). */
  has(time: number, pitch: number): boolean {
    const { times, pitches } = this;
    let low = this.first;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((times[mid] as number) < time - PEAK_FRAMES) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < this.count && (times[i] as number) <= time + PEAK_FRAMES; i += 1)
      if (Math.abs((pitches[i] as number) - pitch) <= PEAK_SEMITONES) return true;
    return false;
  }
}

/** The first index in sorted `list` whose value is at least `value`. */
function lowerBound(list: Uint32Array, value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((list[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

const anchorKey = (q: number, r: number) => Math.round(q) * 524_288 + Math.round(r);
const onLine = (line: Line, q: number, r: number, p: number, tolerance: number) =>
  Math.abs(r - (line.at + line.speed * (q - line.origin))) <= tolerance && Math.abs(p - line.pitch) <= 0.7;

/**
 * One recognition run over one recording: `push` mono PCM chunks (any length), `finish` for the detections. Memory
 * stays bounded (about the last minute of matches) however long the recording is.
 */
export class RecognitionSession {
  private readonly extractor: FingerprintExtractor;
  private readonly settings: MatcherSettings;
  private readonly blockFrames: number;
  private blocks: MatchBlock[] = [];
  private current: MatchBlock;
  private readonly open = new Map<number, Segment>();
  private readonly closed: Segment[] = [];
  private readonly keys: number[] = [];
  private readonly visitor: EntryVisitor & { quad: Quad | null };
  private samples = 0;
  private matchCount = 0;
  private lookups = 0;
  private readonly votes = new Counter();
  private readonly peaks = new PeakHistory();

  constructor(
    private readonly index: FingerprintIndex,
    private readonly sampleRate: number,
    private readonly options: { settings?: Partial<MatcherSettings>; onProgress?: (progress: RecognitionProgress) => void } = {},
  ) {
    this.settings = { ...DEFAULT_MATCHER_SETTINGS, ...options.settings };
    this.blockFrames = Math.round(this.settings.blockSeconds * FRAMES_PER_SECOND);
    this.current = new MatchBlock(0);
    const session = this;
    const minSpeed = 1 - this.settings.maxSpeedChange;
    const maxSpeed = 1 + this.settings.maxSpeedChange;
    this.visitor = {
      quad: null,
      visit(track: number, data: number) {
        const quad = this.quad as Quad;
        const speed = entrySpan(data) / quad.span;
        if (speed < minSpeed || speed > maxSpeed) return;
        const pitch = quad.pitch - entryPitch(data);
        if (pitch > MAX_PITCH_SHIFT + 0.25 || pitch < -MAX_PITCH_SHIFT - 0.25) return;
        // A turntable (pitch follows speed) or key lock (no pitch change): the span's speed is rough, hence the slack.
        if (Math.abs(pitch) > 0.6 && Math.abs(pitch - 12 * Math.log2(speed)) > 0.9) return;
        session.current.add(track, quad.time, entryTime(data), speed, pitch, quad.pitch);
        session.matchCount += 1;
      },
    };
    this.extractor = new FingerprintExtractor(
      sampleRate,
      'query',
      (quad) => this.onQuad(quad),
      undefined,
      (peaks) => this.peaks.add(peaks),
    );
  }

  /** Seconds of audio pushed so far. */
  get seconds(): number {
    return this.samples / this.sampleRate;
  }

  get stats() {
    return { matches: this.matchCount, lookups: this.lookups };
  }

  /**
   * Tracks found so far (seconds in the recording), for progress reports: segments strong enough to be a detection,
   * closed or still open, before overlaps are resolved (`finish` has the final word).
   */
  found(): { track: number; start: number; end: number }[] {
    const { minDetectionAnchors } = this.settings;
    const strong = [
      ...this.closed.filter((s) => s.count >= minDetectionAnchors),
      ...[...this.open.values()].filter((s) => s.anchors.size >= minDetectionAnchors),
    ];
    return strong
      .sort((a, b) => a.start - b.start)
      .map((s) => ({ track: s.track, start: frameToSeconds(s.start), end: frameToSeconds(s.end) }));
  }

  push(samples: Float32Array) {
    this.samples += samples.length;
    this.extractor.push(samples);
  }

  finish(): RawDetection[] {
    this.extractor.finish();
    this.closeBlock();
    // Windows that end after the last block, so the last seconds are examined like the others.
    for (let extra = 1; extra < this.settings.windowBlocks; extra += 1) {
      this.current = new MatchBlock(this.current.index + 1);
      this.closeBlock();
    }
    for (const segment of this.open.values()) this.close(segment);
    this.open.clear();
    return this.resolve();
  }

  private onQuad(quad: Quad) {
    const blockIndex = Math.floor(quad.time / this.blockFrames);
    while (blockIndex > this.current.index) {
      this.closeBlock();
      this.current = new MatchBlock(this.current.index + 1);
    }
    this.visitor.quad = quad;
    for (const key of probeKeys(quad, this.keys)) {
      this.lookups += 1;
      this.index.lookup(key, this.visitor);
    }
  }

  private closeBlock() {
    const { settings } = this;
    this.blocks.push(this.current);
    if (this.blocks.length > settings.historyBlocks) this.blocks.shift();
    const windowBlocks = this.blocks.slice(-settings.windowBlocks);
    const origin = (this.current.index - settings.windowBlocks + 1) * this.blockFrames;
    const windowEnd = (this.current.index + 1) * this.blockFrames;
    const hits = this.examine(windowBlocks, origin);
    const hitTracks = new Set<number>();
    for (const hit of hits) {
      hitTracks.add(hit.track);
      this.accept(hit);
    }
    // Open segments without a verified window: follow their line through the newest block (fading out).
    for (const segment of this.open.values()) {
      if (hitTracks.has(segment.track)) continue;
      const block = this.current;
      let last = -1;
      let count = 0;
      for (let i = 0; i < block.count; i += 1) {
        if (block.track[i] !== segment.track) continue;
        const q = block.queryTime[i];
        if (q > segment.end && onLine(segment.line, q, block.referenceTime[i], block.pitch[i], settings.tolerance * 2)) {
          const key = anchorKey(q, block.referenceTime[i]);
          if (!segment.anchors.has(key)) {
            segment.anchors.add(key);
            count += 1;
            if (q > last) last = q;
          }
        }
      }
      if (count >= 2) segment.end = Math.max(segment.end, last);
    }
    for (const [track, segment] of this.open) {
      if (segment.end < windowEnd - settings.gapSeconds * FRAMES_PER_SECOND) {
        this.close(segment);
        this.open.delete(track);
      }
    }
    this.options.onProgress?.({ seconds: this.seconds, detections: this.closed.length });
  }

  private close(segment: Segment) {
    segment.count = segment.anchors.size;
    segment.anchors = new Set();
    this.closed.push(segment);
  }

  /** Verified (track, line) hits in the window starting at frame `origin`. */
  private examine(blocks: MatchBlock[], origin: number): { track: number; line: Line; points: Point[] }[] {
    const { settings } = this;
    const binFrames = FRAMES_PER_SECOND;
    const votes = this.votes;
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
    if (candidates.length === 0) return [];
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
    const hits: { track: number; line: Line; points: Point[] }[] = [];
    for (const [track, { points }] of wanted) {
      const verified = this.verify(points, origin);
      if (verified) hits.push({ track, ...verified });
    }
    return hits;
  }

  /** Fits a line to the points and checks it is real music, not coincidence. */
  private verify(points: Point[], origin: number): { line: Line; points: Point[] } | null {
    const { settings } = this;
    if (points.length < settings.minVotes) return null;
    const maxSpeed = 1 + settings.maxSpeedChange;
    const minSpeed = 1 - settings.maxSpeedChange;
    let speed = median(points.map((p) => p.v));
    let at = median(points.map((p) => p.r - speed * (p.q - origin)));
    let inliers = points;
    for (const tolerance of [3 * settings.tolerance, 2 * settings.tolerance, settings.tolerance]) {
      inliers = points.filter((p) => Math.abs(p.r - (at + speed * (p.q - origin))) <= tolerance);
      if (inliers.length < 3) return null;
      // Least squares on the inliers, when they span enough time to tell the slope.
      let sq = 0;
      let sr = 0;
      for (const p of inliers) {
        sq += p.q - origin;
        sr += p.r;
      }
      const mq = sq / inliers.length;
      const mr = sr / inliers.length;
      let sqq = 0;
      let sqr = 0;
      for (const p of inliers) {
        sqq += (p.q - origin - mq) ** 2;
        sqr += (p.q - origin - mq) * (p.r - mr);
      }
      const spread = Math.sqrt(sqq / inliers.length);
      if (spread > 2 * FRAMES_PER_SECOND) speed = Math.min(maxSpeed, Math.max(minSpeed, sqr / sqq));
      at = mr - speed * mq;
    }
    const pitch = median(inliers.map((p) => p.p));
    inliers = inliers.filter((p) => Math.abs(p.p - pitch) <= 0.7);
    const turntable = 12 * Math.log2(speed);
    if (Math.abs(pitch) > 0.5 && Math.abs(pitch - turntable) > 0.5) return null;
    const anchors = new Set<number>();
    const seconds = new Set<number>();
    const bands = new Set<number>();
    for (const p of inliers) {
      anchors.add(anchorKey(p.q, p.r));
      seconds.add(Math.floor(p.q / FRAMES_PER_SECOND));
      bands.add(Math.floor(p.root / 6));
    }
    if (anchors.size < settings.minAnchors || seconds.size < settings.minSeconds || bands.size < settings.minBands) return null;
    return { line: { at, origin, speed, pitch }, points: inliers };
  }

  private accept(hit: { track: number; line: Line; points: Point[] }) {
    const { settings } = this;
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (const p of hit.points) {
      if (p.q < first) first = p.q;
      if (p.q > last) last = p.q;
    }
    let segment = this.open.get(hit.track);
    if (!segment) {
      segment = { track: hit.track, line: hit.line, start: first, end: last, anchors: new Set(), count: 0, windows: 0, referenceStart: 0 };
      this.open.set(hit.track, segment);
      // Push the start back along the line through the earlier matches, while they keep coming (gaps under 4 s).
      const earlier: number[] = [];
      for (const block of this.blocks) {
        for (let i = 0; i < block.count; i += 1) {
          if (block.track[i] !== hit.track) continue;
          const q = block.queryTime[i];
          if (q < first && onLine(hit.line, q, block.referenceTime[i], block.pitch[i], settings.tolerance * 1.5)) earlier.push(q);
        }
      }
      earlier.sort((a, b) => b - a);
      for (const q of earlier) {
        if (segment.start - q > 8 * FRAMES_PER_SECOND) break;
        segment.start = q;
      }
      segment.start = this.earliestPlaying(hit.track, hit.line, segment.start);
    }
    segment.line = hit.line;
    segment.windows += 1;
    segment.end = Math.max(segment.end, last);
    segment.start = Math.min(segment.start, first);
    for (const p of hit.points) segment.anchors.add(anchorKey(p.q, p.r));
  }

  /**
   * Where a track found at `start` began to be heard, walking back along its line a second at a time. A track fading
   * in under another is a few decibels down: too few of its quads survive the mix to be found, but many of its single
   * peaks still stand out. So each window is judged by how many of the track's own peaks (its index's roots, mapped
   * through the line) the query has a peak at, against decoy lines a few semitones off that tell the rate by chance.
   * The start moves to the earliest window clearly above chance, until several windows in a row are not.
   */
  private earliestPlaying(track: number, line: Line, start: number): number {
    const { settings } = this;
    const roots = settings.refineSeconds > 0 ? this.index.rootsOf?.(track) : undefined;
    if (!roots || roots.length === 0) return start;
    const window = settings.refineWindowSeconds * FRAMES_PER_SECOND;
    const limit = Math.max(this.peaks.since, start - settings.refineSeconds * FRAMES_PER_SECOND);
    const referenceAt = (q: number) => line.at + line.speed * (q - line.origin);
    let earliest = start;
    let misses = 0;
    for (let from = start - FRAMES_PER_SECOND; from >= limit; from -= FRAMES_PER_SECOND) {
      const first = lowerBound(roots, Math.max(0, Math.ceil(referenceAt(from))) << 7);
      const last = lowerBound(roots, Math.max(0, Math.ceil(referenceAt(from + window))) << 7);
      let tried = 0;
      let found = 0;
      let decoys = 0;
      for (let i = first; i < last; i += 1) {
        const root = roots[i] as number;
        const q = line.origin + (rootTime(root) - line.at) / line.speed;
        const pitch = rootPitch(root) + line.pitch;
        tried += 1;
        if (this.peaks.has(q, pitch)) found += 1;
        for (const shift of DECOY_SHIFTS) if (this.peaks.has(q, pitch + shift)) decoys += 1;
      }
      const chance = Math.max(0.02, decoys / Math.max(1, tried * DECOY_SHIFTS.length));
      const score = tried === 0 ? 0 : (found - tried * chance) / Math.sqrt(tried * chance * (1 - chance));
      if (score > settings.refineScore) {
        earliest = from;
        misses = 0;
      } else if (++misses > settings.refineMisses) break;
    }
    return earliest;
  }

  /** Closed segments to detections: weak ones dropped, and of two that mostly overlap, the stronger kept. */
  private resolve(): RawDetection[] {
    const { settings } = this;
    const strong = this.closed.filter((s) => s.count >= settings.minDetectionAnchors).sort((a, b) => b.count - a.count);
    const kept: Segment[] = [];
    for (const segment of strong) {
      const length = Math.max(1, segment.end - segment.start);
      const clash = kept.some((other) => {
        const overlap = Math.min(other.end, segment.end) - Math.max(other.start, segment.start);
        return overlap > 0.5 * length;
      });
      if (!clash) kept.push(segment);
    }
    return kept
      .sort((a, b) => a.start - b.start)
      .map((segment) => {
        const { line } = segment;
        return {
          track: segment.track,
          start: frameToSeconds(segment.start),
          end: frameToSeconds(segment.end),
          confidence: 1 - Math.exp(-segment.count / 40),
          speed: line.speed,
          pitchShift: line.pitch,
          referenceStart: Math.max(0, frameToSeconds(line.at + line.speed * (segment.start - line.origin))),
          anchors: segment.count,
        };
      });
  }
}
