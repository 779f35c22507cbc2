import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { allocateSubscriber, creatorKey, type ListenedMix, secondsPerTrack, splitCents } from './rewards.js';

const sum = (values: Iterable<number>) => [...values].reduce((acc, value) => acc + value, 0);
const creator = (name: string) => ({ key: `name:${name.toLowerCase()}`, name });

describe('splitCents (largest remainder)', () => {
  test('three creators sharing 1 cent: one gets it (the first key on a tie), none is invented', () => {
    const parts = splitCents(
      1,
      new Map([
        ['c', 1],
        ['a', 1],
        ['b', 1],
      ]),
    );
    expect(Object.fromEntries(parts)).toEqual({ a: 1, b: 0, c: 0 });
  });

  test('the largest remainders get the leftover cents', () => {
    // 100 over 1:1:1 is 33.33 each: one leftover cent, to the first key.
    expect(
      Object.fromEntries(
        splitCents(
          100,
          new Map([
            ['x', 1],
            ['y', 1],
            ['z', 1],
          ]),
        ),
      ),
    ).toEqual({ x: 34, y: 33, z: 33 });
    // 10 over 0.55 : 0.45 is 5.5 and 4.5: the tie of remainders goes to the first key.
    expect(
      Object.fromEntries(
        splitCents(
          10,
          new Map([
            ['b', 55],
            ['a', 45],
          ]),
        ),
      ),
    ).toEqual({ a: 5, b: 5 });
    // 699 over 2:1 is 466 and 233 exactly.
    expect(
      Object.fromEntries(
        splitCents(
          699,
          new Map([
            ['a', 2],
            ['b', 1],
          ]),
        ),
      ),
    ).toEqual({ a: 466, b: 233 });
  });

  test('no weight, nothing split', () => {
    expect(splitCents(50, new Map()).size).toBe(0);
    expect(splitCents(50, new Map([['a', 0]])).size).toBe(0);
  });

  test('any total over any weights: the parts add up exactly, each within one cent of its exact share', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 6 }), fc.double({ min: 0.001, max: 1e6, noNaN: true })), {
          minLength: 1,
          maxLength: 40,
        }),
        (total, pairs) => {
          const weights = new Map(pairs);
          const parts = splitCents(total, weights);
          const weightSum = sum(weights.values());
          expect(sum(parts.values())).toBe(total);
          for (const [key, cents] of parts) {
            expect(Number.isInteger(cents)).toBe(true);
            expect(Math.abs(cents - (total * (weights.get(key) ?? 0)) / weightSum)).toBeLessThan(1);
          }
        },
      ),
    );
  });
});

describe('secondsPerTrack', () => {
  const timed: ListenedMix = {
    seconds: 300,
    durationSeconds: 600,
    tracklist: [
      { trackId: 't1', creators: [creator('A')], startTime: 0, endTime: null },
      { trackId: 't2', creators: [creator('B')], startTime: 200, endTime: 250 },
      { trackId: 't3', creators: [creator('C')], startTime: 400, endTime: null },
    ],
  };

  test('a listen of a timed tracklist credits the time each track played from the start of the mix', () => {
    expect(Object.fromEntries(secondsPerTrack(timed))).toEqual({ t1: 200, t2: 50 });
  });

  test('without times, the listen splits equally across the tracklist', () => {
    const untimed = { ...timed, tracklist: timed.tracklist.map((entry) => ({ ...entry, startTime: null, endTime: null })) };
    expect(Object.fromEntries(secondsPerTrack(untimed))).toEqual({ t1: 100, t2: 100, t3: 100 });
  });

  test('listens under 30 s credit nothing', () => {
    expect(secondsPerTrack({ ...timed, seconds: 29.9 }).size).toBe(0);
    expect(secondsPerTrack({ ...timed, seconds: 30 }).size).toBe(1);
  });

  test('a listen longer than the mix counts the mix once (gaps between tracks credit nobody)', () => {
    expect(Object.fromEntries(secondsPerTrack({ ...timed, seconds: 5000 }))).toEqual({ t1: 200, t2: 50, t3: 200 });
  });
});

describe('allocateSubscriber', () => {
  test('three creators of one track sharing 1 cent: exactly 1 cent allocated', () => {
    const shares = allocateSubscriber(1, [
      {
        seconds: 60,
        durationSeconds: null,
        tracklist: [{ trackId: 't', creators: [creator('X'), creator('Y'), creator('Z')], startTime: null, endTime: null }],
      },
    ]);
    expect(sum(shares.map((share) => share.cents))).toBe(1);
    expect(shares.map((share) => share.cents)).toEqual([1]);
  });

  test('the pool follows listening time, across mixes; cents add up to the pool', () => {
    const shares = allocateSubscriber(699, [
      {
        seconds: 90,
        durationSeconds: null,
        tracklist: [
          { trackId: 'a', creators: [creator('Ann')], startTime: null, endTime: null },
          { trackId: 'b', creators: [creator('Bo')], startTime: null, endTime: null },
          { trackId: 'c', creators: [creator('Cy'), creator('Ann')], startTime: null, endTime: null },
        ],
      },
      { seconds: 10, durationSeconds: null, tracklist: [{ trackId: 'd', creators: [creator('Dee')], startTime: null, endTime: null }] },
    ]);
    // 30 s on each of a, b, c (c split between Cy and Ann); the 10 s listen is under 30 s and counts for nothing.
    expect(shares.map(({ name, cents }) => [name, cents])).toEqual([
      ['Ann', 350],
      ['Bo', 233],
      ['Cy', 116],
    ]);
    expect(sum(shares.map((share) => share.cents))).toBe(699);
    // Ann's 350 cents over her two tracks, 30 s on a and 15 s (her half of c): 233.33 and 116.67 round to 233 and 117.
    expect(shares[0]?.tracks).toEqual([
      { trackId: 'a', cents: 233, seconds: 30 },
      { trackId: 'c', cents: 117, seconds: 15 },
    ]);
  });

  test('a creator’s tracks split their cents by largest remainder, ties to the track id that sorts first', () => {
    const [share] = allocateSubscriber(100, [
      {
        seconds: 90,
        durationSeconds: null,
        tracklist: ['t3', 't1', 't2'].map((trackId) => ({ trackId, creators: [creator('Ann')], startTime: null, endTime: null })),
      },
    ]);
    expect(share?.tracks).toEqual([
      { trackId: 't1', cents: 34, seconds: 30 },
      { trackId: 't2', cents: 33, seconds: 30 },
      { trackId: 't3', cents: 33, seconds: 30 },
    ]);
  });

  test('nothing listened (or only tracks without creators): nobody gets anything', () => {
    expect(allocateSubscriber(699, [])).toEqual([]);
    expect(
      allocateSubscriber(699, [
        { seconds: 100, durationSeconds: null, tracklist: [{ trackId: 'a', creators: [], startTime: null, endTime: null }] },
      ]),
    ).toEqual([]);
  });

  test('awkward pools over random listening add up exactly, per creator and per track', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.array(fc.tuple(fc.integer({ min: 30, max: 7200 }), fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 8 })), {
          minLength: 1,
          maxLength: 6,
        }),
        (pool, listens) => {
          const mixes: ListenedMix[] = listens.map(([seconds, creatorCounts], mix) => ({
            seconds,
            durationSeconds: null,
            tracklist: creatorCounts.map((count, track) => ({
              trackId: `m${mix}t${track}`,
              creators: Array.from({ length: count }, (_, index) => creator(`C${(mix + track + index) % 7}`)),
              startTime: null,
              endTime: null,
            })),
          }));
          const shares = allocateSubscriber(pool, mixes);
          expect(sum(shares.map((share) => share.cents))).toBe(pool);
          for (const share of shares) {
            expect(sum(share.tracks.map((track) => track.cents))).toBe(share.cents);
            expect(sum(share.tracks.map((track) => track.seconds))).toBeCloseTo(share.seconds, 6);
          }
        },
      ),
    );
  });

  test('a creator is known by catalogue id, else by name folded to lower case', () => {
    expect(creatorKey({ id: '42', name: 'Ann' })).toBe('id:42');
    expect(creatorKey({ id: null, name: ' ANN ' })).toBe('name:ann');
  });
});
