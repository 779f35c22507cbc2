import { describe, expect, it } from 'vitest';
import {
  charsForWidth,
  formatClock,
  formatDate,
  formatDistance,
  genreLabel,
  storeLinks,
  truncate,
  truncateForWidth,
  userTypeLabel,
} from './format';

describe('formatting (docs/rules.md#display-formats)', () => {
  it('shows whole kilometres with thousands separators, nothing when unknown', () => {
    expect(formatDistance(7.4)).toBe('7 km');
    expect(formatDistance(929.6)).toBe('930 km');
    expect(formatDistance(12_345.5)).toBe('12,346 km');
    expect(formatDistance(0)).toBe('0 km');
    expect(formatDistance(null)).toBeNull();
    expect(formatDistance(undefined)).toBeNull();
  });

  it("formats dates as 'MMM Do YY'", () => {
    expect(formatDate('2024-05-24T10:00:00Z', 'UTC')).toBe('May 24th 24');
    expect(formatDate(new Date(2024, 8, 3))).toBe('Sep 3rd 24');
    expect(formatDate(new Date(2026, 10, 1))).toBe('Nov 1st 26');
    expect(formatDate(new Date(2026, 10, 22))).toBe('Nov 22nd 26');
  });

  it('formats a date in UTC for server renders, whatever the local time zone', () => {
    const lateEvening = '2026-11-22T23:30:00Z';
    expect(formatDate(lateEvening, 'UTC')).toBe('Nov 22nd 26');
    const local = new Date(lateEvening);
    expect(formatDate(lateEvening)).toBe(formatDate(new Date(local.getFullYear(), local.getMonth(), local.getDate())));
  });

  it('truncates by window width at the documented breakpoints', () => {
    expect([249, 250, 299, 300, 399, 400, 449, 450, 499, 500, 899, 900].map(charsForWidth)).toEqual([
      10, 16, 16, 20, 20, 26, 26, 33, 33, 35, 35, 50,
    ]);
    expect(truncate('Sunset at Kreuzberg', 10)).toBe('Sunset at ...');
    expect(truncate('Short', 10)).toBe('Short');
    expect(truncateForWidth('A'.repeat(60), 1280)).toBe(`${'A'.repeat(50)}...`);
  });

  it('shows player time as m:ss and h:mm:ss', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(65.9)).toBe('1:05');
    expect(formatClock(5400)).toBe('1:30:00');
    expect(formatClock(Number.NaN)).toBe('0:00');
  });

  it('labels genres and user types as documented', () => {
    expect(genreLabel('SOUL_FUNK_DISCO')).toBe('Soul / Funk / Disco');
    expect(genreLabel('RNB_HIP_HOP')).toBe('R&B / Hip Hop');
    expect(genreLabel('ALL')).toBe('All');
    expect(userTypeLabel('DJ_CREATOR')).toBe('DJ Creator');
    expect(userTypeLabel('LISTENER')).toBe('Listener');
  });

  it('builds store search links from the title and the first creator', () => {
    const [first] = storeLinks('Midnight Drive', [{ name: 'Ana K' }, { name: 'B' }]);
    expect(first?.url).toContain('q=Ana%20K%20Midnight%20Drive');
  });
});
