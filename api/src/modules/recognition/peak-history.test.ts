import { describe, expect, test } from 'vitest';
import { PeakHistory } from './peak-history.js';

const peak = (time: number, pitch: number) => ({ time, pitch, level: 1 });

describe("the query's peak history", () => {
  test('a peak within 2 frames and 0.4 semitones', () => {
    const history = new PeakHistory();
    expect(history.since).toBe(Number.POSITIVE_INFINITY);
    expect(history.until).toBe(Number.NEGATIVE_INFINITY);
    expect(history.has(0, 0)).toBe(false);
    history.add([peak(100, 20), peak(110, 30), peak(120, 40)]);
    expect(history.since).toBe(100);
    expect(history.until).toBe(120);
    for (const [time, pitch] of [
      [110, 30],
      [108, 30],
      [112, 30],
      [110, 29.6],
      [110, 30.4],
    ]) {
      expect(history.has(time as number, pitch as number), `${time} ${pitch}`).toBe(true);
    }
    for (const [time, pitch] of [
      [107.9, 30],
      [112.1, 30],
      [110, 29.5],
      [110, 30.5],
      [115, 30],
      [95, 20],
      [125, 40],
    ]) {
      expect(history.has(time as number, pitch as number), `${time} ${pitch}`).toBe(false);
    }
  });

  test('keeps the last two minutes, however many peaks come', () => {
    const history = new PeakHistory();
    for (let chunk = 0; chunk < 40; chunk += 1) {
      history.add(Array.from({ length: 1000 }, (_, index) => peak((chunk * 1000 + index) / 4, 10 + (index % 20))));
    }
    // The newest peak is at frame 9999.75; two minutes are 7500 frames.
    expect(history.since).toBe(2499.75);
    expect(history.has(9999.75, 29)).toBe(true);
    expect(history.has(2499.75, 29)).toBe(true);
    expect(history.has(2400, 10)).toBe(false);
    history.add([]);
    expect(history.since).toBe(2499.75);
    // Many peaks at once: the history grows to hold them.
    history.add(Array.from({ length: 20_000 }, (_, index) => peak(10_000 + index / 8, 50)));
    expect(history.has(10_000, 50)).toBe(true);
    expect(history.has(12_499.875, 50)).toBe(true);
    expect(history.until).toBe(12_499.875);
    expect(history.since).toBe(5000);
    expect(history.has(9999.75, 29)).toBe(true);
  });
});
