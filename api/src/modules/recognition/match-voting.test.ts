import { describe, expect, test } from 'vitest';
import { Counter, MatchBlock, votedCandidates } from './match-voting.js';
import { DEFAULT_MATCHER_SETTINGS, FRAMES_PER_SECOND } from './matcher-settings.js';

const SECOND = FRAMES_PER_SECOND;

describe('the vote counter', () => {
  test('counts per key, zero for keys never added, and forgets everything once drained', () => {
    const counter = new Counter();
    counter.add(5);
    counter.add(5);
    counter.add(7, 3);
    counter.add(0);
    expect([counter.get(5), counter.get(7), counter.get(0), counter.get(6)]).toEqual([2, 3, 1, 0]);
    const seen: [number, number][] = [];
    counter.drain((key, count) => {
      seen.push([key, count]);
      expect(counter.get(key)).toBe(count);
    });
    expect(seen).toEqual([
      [5, 2],
      [7, 3],
      [0, 1],
    ]);
    expect(counter.get(5)).toBe(0);
    counter.drain(() => {
      throw new Error('nothing left');
    });
  });

  test('keys that share a slot, keys past 2^30, and more keys than its first table holds', () => {
    const counter = new Counter();
    // 9,000 keys: past the 8,192 the first table takes before it grows; a third of them past 2^31.
    const keys = Array.from({ length: 9000 }, (_, index) => index * 97 + 2 ** 31 * (index % 3));
    for (const key of keys) counter.add(key, (key % 7) + 1);
    for (const key of keys.slice(0, 50)) counter.add(key);
    expect(keys.every((key, index) => counter.get(key) === (key % 7) + 1 + (index < 50 ? 1 : 0))).toBe(true);
    expect(counter.get(3)).toBe(0);
    let drained = 0;
    counter.drain(() => {
      drained += 1;
    });
    expect(drained).toBe(9000);
  });
});

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
    const found = votedCandidates([block], ORIGIN, new Counter(), settings);
    expect([...found.keys()]).toEqual([1]);
    expect(found.get(1)?.bin).toBe(100 + 64);
    expect(found.get(1)?.points).toHaveLength(13);
    expect(found.get(1)?.points[0]).toEqual({ q: ORIGIN, r: 100 * SECOND + 10, v: 1, p: 0.5, root: 20 });
  });

  test('a place needs the least votes itself; its neighbours add to it', () => {
    const few = new MatchBlock(0);
    add(few, 2, settings.minVotes - 1, 50 * SECOND + 10);
    add(few, 2, settings.minVotes - 1, 51 * SECOND + 10);
    expect(votedCandidates([few], ORIGIN, new Counter(), settings).size).toBe(0);
    const enough = new MatchBlock(0);
    add(enough, 2, settings.minVotes, 50 * SECOND + 10);
    expect(votedCandidates([enough], ORIGIN, new Counter(), settings).get(2)?.points).toHaveLength(settings.minVotes);
    // Bins 50 (7 votes) and 52 (8), with bin 51 at 6: 51 gathers 6 + 8 and wins.
    const spread = new MatchBlock(0);
    add(spread, 3, 7, 50 * SECOND + 10);
    add(spread, 3, 6, 51 * SECOND + 10);
    add(spread, 3, 8, 52 * SECOND + 10);
    expect(votedCandidates([spread], ORIGIN, new Counter(), settings).get(3)?.bin).toBe(51 + 64);
  });

  test('votes from every block; a start before the reference still counts (down to 64 s)', () => {
    const early = new MatchBlock(0);
    const late = new MatchBlock(1);
    add(early, 4, 3, -10 * SECOND + 10);
    add(late, 4, 3, -10 * SECOND + 10);
    expect(votedCandidates([early, late], ORIGIN, new Counter(), settings).get(4)?.bin).toBe(54);
  });

  test('the 24 best-voted tracks only, and the counter left empty', () => {
    const block = new MatchBlock(0);
    for (let track = 1; track <= 25; track += 1) add(block, track, 6 + track, 10 * SECOND + 10);
    const votes = new Counter();
    const found = votedCandidates([block], ORIGIN, votes, settings);
    expect(found.size).toBe(24);
    expect(found.has(1)).toBe(false);
    expect(found.has(25)).toBe(true);
    expect(votes.get(25 * 8192 + 10 + 64)).toBe(0);
  });
});
