import { describe, expect, test } from 'vitest';
import { Random } from '../../shared/random.js';
import type { Point } from './match-lines.js';
import { MatchBlock, VoteScratch, votedCandidates } from './match-voting.js';
import { DEFAULT_MATCHER_SETTINGS, FRAMES_PER_SECOND } from './matcher-settings.js';

const SECOND = FRAMES_PER_SECOND;

describe('a block of matches', () => {
  test('keeps every match in order, growing past its first 1,024', () => {
    const block = new MatchBlock(3);
    for (let i = 0; i < 3000; i += 1) block.add(i, i + 0.5, i * 2, 1 + i / 10_000, -i / 1000, i % 50);
    expect(block.index).toBe(3);
    expect(block.count).toBe(3000);
    for (const i of [0, 1023, 1024, 2048, 2999]) {
      expect([block.track[i], block.queryTime[i], block.referenceTime[i], block.rootPitch[i]]).toEqual([i, i + 0.5, i * 2, i % 50]);
      expect(block.speed[i]).toBeCloseTo(1 + i / 10_000, 5);
      expect(block.pitch[i]).toBeCloseTo(-i / 1000, 5);
    }
  });
});

describe('voting for where each track starts', () => {
  const settings = DEFAULT_MATCHER_SETTINGS;
  const ORIGIN = 1000;
  /** `count` matches of `track` whose line starts `start` frames into the reference at ORIGIN. */
  const add = (block: MatchBlock, track: number, count: number, start: number, speed = 1) => {
    for (let i = 0; i < count; i += 1) {
      const q = ORIGIN + i * 10;
      block.add(track, q, start + speed * (q - ORIGIN), speed, 0.5, 20 + i);
    }
  };

  test('the matches agreeing on the best-voted second, and the seconds beside it', () => {
    const block = new MatchBlock(0);
    add(block, 1, 10, 100 * SECOND + 10);
    // One second later: still within a bin of the best.
    add(block, 1, 3, 101 * SECOND + 10);
    // Two seconds later: not.
    add(block, 1, 4, 102.5 * SECOND);
    const found = votedCandidates([block], ORIGIN, new VoteScratch(), settings);
    expect([...found.keys()]).toEqual([1]);
    expect(found.get(1)?.bin).toBe(100 + 64);
    expect(found.get(1)?.points).toHaveLength(13);
    expect(found.get(1)?.points[0]).toEqual({ q: ORIGIN, r: 100 * SECOND + 10, v: 1, p: 0.5, root: 20 });
  });

  test('a place needs the least votes itself; its neighbours add to it', () => {
    const few = new MatchBlock(0);
    add(few, 2, settings.minVotes - 1, 50 * SECOND + 10);
    add(few, 2, settings.minVotes - 1, 51 * SECOND + 10);
    expect(votedCandidates([few], ORIGIN, new VoteScratch(), settings).size).toBe(0);
    const enough = new MatchBlock(0);
    add(enough, 2, settings.minVotes, 50 * SECOND + 10);
    expect(votedCandidates([enough], ORIGIN, new VoteScratch(), settings).get(2)?.points).toHaveLength(settings.minVotes);
    // Bins 50 (7 votes) and 52 (8), with bin 51 at 6: 51 gathers 6 + 8 and wins.
    const spread = new MatchBlock(0);
    add(spread, 3, 7, 50 * SECOND + 10);
    add(spread, 3, 6, 51 * SECOND + 10);
    add(spread, 3, 8, 52 * SECOND + 10);
    expect(votedCandidates([spread], ORIGIN, new VoteScratch(), settings).get(3)?.bin).toBe(51 + 64);
  });

  test('votes from every block; a start before the reference still counts (down to 64 s)', () => {
    const early = new MatchBlock(0);
    const late = new MatchBlock(1);
    add(early, 4, 3, -10 * SECOND + 10);
    add(late, 4, 3, -10 * SECOND + 10);
    expect(votedCandidates([early, late], ORIGIN, new VoteScratch(), settings).get(4)?.bin).toBe(54);
  });

  test('the 24 best-voted tracks only, best first, and the scratch space left empty', () => {
    const block = new MatchBlock(0);
    for (let track = 1; track <= 25; track += 1) add(block, track, 6 + track, 10 * SECOND + 10);
    const scratch = new VoteScratch();
    const found = votedCandidates([block], ORIGIN, scratch, settings);
    expect([...found.keys()]).toEqual(Array.from({ length: 24 }, (_, index) => 25 - index));
    expect(scratch.metCount).toBe(0);
    expect(scratch.perTrack.every((count) => count === 0)).toBe(true);
  });

  test('equal votes: the place voted for first, and the track whose place was voted for first', () => {
    const block = new MatchBlock(0);
    // Track 8's places 30 and 20 have 6 votes each; 30's came first.
    add(block, 8, 6, 30 * SECOND + 10);
    add(block, 8, 6, 20 * SECOND + 10);
    // Tracks 9 and 7 as many votes as 8, later: 8 first, then 9, then 7.
    add(block, 9, 6, 40 * SECOND + 10);
    add(block, 7, 6, 40 * SECOND + 10);
    const found = votedCandidates([block], ORIGIN, new VoteScratch(), settings);
    expect([...found.keys()]).toEqual([8, 9, 7]);
    expect(found.get(8)?.bin).toBe(30 + 64);
  });

  test('track numbers past the scratch space as it was first sized, window after window', () => {
    const scratch = new VoteScratch();
    // 1,024: the first size; 70,000: past twice the size before. Each with just enough votes.
    for (const track of [5, 1024, 70_000, 3]) {
      const block = new MatchBlock(0);
      add(block, track, settings.minVotes, 12 * SECOND + 10);
      expect([...votedCandidates([block], ORIGIN, scratch, settings).keys()]).toEqual([track]);
    }
  });
});

/**
 * The rule as first written, with one table of (track, second) counts for the whole window: what votedCandidates
 * must answer, whatever the matches.
 */
function votedByTable(blocks: readonly MatchBlock[], origin: number, minVotes: number): Map<number, { bin: number; points: Point[] }> {
  const votes = new Map<number, number>();
  const keyOf = (block: MatchBlock, i: number) =>
    (block.track[i] as number) * 8192 +
    Math.floor(((block.referenceTime[i] as number) - (block.speed[i] as number) * ((block.queryTime[i] as number) - origin)) / SECOND) +
    64;
  for (const block of blocks) for (let i = 0; i < block.count; i += 1) votes.set(keyOf(block, i), (votes.get(keyOf(block, i)) ?? 0) + 1);
  const best = new Map<number, { bin: number; votes: number }>();
  for (const [key, count] of votes) {
    if (count < minVotes) continue;
    const track = Math.floor(key / 8192);
    const around = count + Math.max(votes.get(key - 1) ?? 0, votes.get(key + 1) ?? 0);
    const known = best.get(track);
    if (!known || around > known.votes) best.set(track, { bin: key - track * 8192, votes: around });
  }
  const wanted = new Map(
    [...best.entries()]
      .sort((a, b) => b[1].votes - a[1].votes)
      .slice(0, 24)
      .map(([track, { bin }]) => [track, { bin, points: [] as Point[] }]),
  );
  for (const block of blocks)
    for (let i = 0; i < block.count; i += 1) {
      const entry = wanted.get(block.track[i] as number);
      if (!entry || Math.abs((keyOf(block, i) % 8192) - entry.bin) > 1) continue;
      const [q, r, v, p, root] = [
        block.queryTime[i],
        block.referenceTime[i],
        block.speed[i],
        block.pitch[i],
        block.rootPitch[i],
      ] as number[];
      entry.points.push({ q, r, v, p, root } as Point);
    }
  return wanted;
}

test('windows of chance hits and lines at any speed: the same candidates, places and points as one table of counts', () => {
  const random = new Random('voting');
  const scratch = new VoteScratch();
  const blockFrames = 4 * SECOND;
  const pick = (n: number) => Math.floor(random.next() * n);
  for (let window = 0; window < 60; window += 1) {
    const origin = 100 * SECOND + window * blockFrames;
    const hits: { track: number; start: number; speed: number }[] = [];
    // Chance hits: up to thousands of tracks (past the scratch space's first sizes), a few hits each, any start.
    const noiseTracks = 1 + pick([50, 400, 3000][window % 3] as number);
    for (let n = pick(window % 4 === 0 ? 6000 : 1500); n > 0; n -= 1)
      hits.push({ track: 1 + pick(noiseTracks), start: pick(300) * SECOND + random.next() * SECOND, speed: 0.84 + random.next() * 0.32 });
    // Lines: a few to some tens of tracks (more than 24 with a place), their votes on a second or its neighbours, often
    // as many as another's (equal votes).
    for (let line = pick(40); line > 0; line -= 1) {
      const track = 1 + pick(noiseTracks + 20);
      const start = pick(12) * SECOND;
      const speed = 0.84 + random.next() * 0.32;
      for (let n = 4 + pick(12); n > 0; n -= 1) hits.push({ track, start: start + pick(3) * SECOND + random.next() * SECOND, speed });
    }
    const blocks = Array.from({ length: 4 }, (_, b) => new MatchBlock(window + b));
    for (let left = hits.length; left > 0; left -= 1) {
      const [hit] = hits.splice(pick(left), 1) as [(typeof hits)[number]];
      const block = blocks[pick(4)] as MatchBlock;
      const q = origin + (block.index - window) * blockFrames + random.next() * blockFrames;
      block.add(hit.track, q, hit.start + hit.speed * (q - origin), hit.speed, random.next() * 4 - 2, random.next() * 60);
    }
    const fast = votedCandidates(blocks, origin, scratch, DEFAULT_MATCHER_SETTINGS);
    const table = votedByTable(blocks, origin, DEFAULT_MATCHER_SETTINGS.minVotes);
    expect([...fast.entries()]).toEqual([...table.entries()]);
  }
});
