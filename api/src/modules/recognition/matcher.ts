// Streaming recognition of a long recording (a DJ mix) against a fingerprint index.
//
// PCM goes in chunk by chunk. Query quads are looked up (with their neighbouring cells), and every hit that could be
// the same music at a DJ's speed (±12%, pitch following the tempo or key-locked) becomes a match: query time, the
// reference's time, the speed its quad spans say, the pitch shift its root says. Matches are kept per 4-second
// block for the last 48 s only, so memory does not grow with the mix's length.
//
// Every 4 s, the last 16 s are examined: per track, matches vote for where in the reference the window begins
// (match-voting.ts); the best-voted places are then verified (match-lines.ts): a line (reference time = start +
// speed x query time) is fitted to the matches, and it is accepted only when enough distinct anchors lie on it, spread
// over several seconds and across the spectrum, with one consistent pitch shift that agrees with the speed
// (turntable) or is nil (key lock). That rejects the confident but false matches of four-on-the-floor drums, whose
// hits agree in time but not on a line.
//
// Accepted windows of one track chain into a segment, here; match-segments.ts judges which segments become detections.
// A segment's start is pushed back along its line through earlier matches, then through the track's own peaks
// (match-onset.ts: a track fading in is heard before it dominates), and its end follows the line as long as matches
// keep landing on it (the fade out).

import { entryPitch, entrySpan, entryTime, FingerprintExtractor, MAX_PITCH_SHIFT, probeRuns } from './fingerprint.js';
import type { EntryVisitor, FingerprintIndex } from './fingerprint-index.js';
import { anchorKey, type Line, onLine, type Point, refitLine, verifyLine } from './match-lines.js';
import { earliestPlaying } from './match-onset.js';
import { detectionsOf, type RawDetection, type Segment } from './match-segments.js';
import { lineEvidence } from './match-verify.js';
import { MatchBlock, VoteScratch, votedCandidates } from './match-voting.js';
import { DEFAULT_MATCHER_SETTINGS, FRAMES_PER_SECOND, frameToSeconds, type MatcherSettings } from './matcher-settings.js';
import { PeakHistory } from './peak-history.js';
import { Spectrogram } from './peaks.js';
import type { Quad } from './quads.js';

/**
 * Seconds of the query's spectrogram kept: a new segment is found up to a window (16 s) after its start, which
 * may move back refineSeconds (40 s), and the fade-in is read from 8 s before that.
 */
const SPECTROGRAM_SECONDS = 72;

export type { RawDetection } from './match-segments.js';

export interface RecognitionProgress {
  /** Seconds of audio analysed so far. */
  seconds: number;
  /** Detections closed so far (more may follow; overlaps are resolved at the end). */
  detections: number;
}

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
  private readonly votes = new VoteScratch();
  private readonly peaks = new PeakHistory();
  private readonly spectrogram = new Spectrogram(SPECTROGRAM_SECONDS);

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
      this.spectrogram,
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
    return detectionsOf(this.closed, this.settings);
  }

  private onQuad(quad: Quad) {
    const blockIndex = Math.floor(quad.time / this.blockFrames);
    while (blockIndex > this.current.index) {
      this.closeBlock();
      this.current = new MatchBlock(this.current.index + 1);
    }
    this.visitor.quad = quad;
    const cells = probeRuns(quad, this.keys);
    for (const key of this.keys) {
      this.lookups += 1;
      this.index.lookup(key, key + cells - 1, this.visitor);
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
    segment.line = refitLine(segment.line, segment.anchors, this.settings.tolerance);
    segment.evidence = lineEvidence(this.index, this.peaks, segment.track, segment.line, segment.start, segment.end);
    segment.anchors = new Set();
    this.closed.push(segment);
  }

  /** Verified (track, line) hits in the window starting at frame `origin`. */
  private examine(blocks: MatchBlock[], origin: number): { track: number; line: Line; points: Point[] }[] {
    const hits: { track: number; line: Line; points: Point[] }[] = [];
    for (const [track, { points }] of votedCandidates(blocks, origin, this.votes, this.settings)) {
      const verified = verifyLine(points, origin, this.settings);
      if (verified) hits.push({ track, ...verified });
    }
    return hits;
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
      segment = {
        track: hit.track,
        line: hit.line,
        start: first,
        end: last,
        anchors: new Set(),
        count: 0,
        windows: 0,
        referenceStart: 0,
        evidence: null,
      };
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
      segment.start = earliestPlaying(this.index, this.peaks, settings, hit.track, hit.line, segment.start, this.spectrogram);
    }
    segment.line = hit.line;
    segment.windows += 1;
    segment.end = Math.max(segment.end, last);
    segment.start = Math.min(segment.start, first);
    for (const p of hit.points) segment.anchors.add(anchorKey(p.q, p.r));
  }
}
