import { describe, expect, it } from 'vitest';
import { HASH_SPACE } from './fingerprint.js';
import { IndexBuilder } from './fingerprint-index.js';

describe('MemoryIndex', () => {
  // Keys on both sides of a 32-key word of the occupancy bitmap, and the last key of the space.
  const keys = [30, 31, 32, 95, HASH_SPACE - 1];
  const builder = new IndexBuilder();
  for (const [i, key] of keys.entries()) builder.addRow(key, i + 1, 1000 + i);
  const index = builder.build();
  const entries = (first: number, last: number) => {
    const seen: [number, number][] = [];
    index.lookup(first, last, { visit: (track, data) => seen.push([track, data]) });
    return seen;
  };

  it('reads a run of keys, whether its used keys are at its start, its end or across a bitmap word', () => {
    expect(entries(28, 31)).toEqual([
      [1, 1000],
      [2, 1001],
    ]);
    expect(entries(31, 34)).toEqual([
      [2, 1001],
      [3, 1002],
    ]);
    expect(entries(92, 95)).toEqual([[4, 1003]]);
    expect(entries(HASH_SPACE - 4, HASH_SPACE - 1)).toEqual([[5, 1004]]);
  });

  it('finds nothing in runs of empty keys', () => {
    expect(entries(0, 29)).toEqual([]);
    expect(entries(33, 94)).toEqual([]);
    expect(entries(96, 4000)).toEqual([]);
  });
});
