import { describe, expect, test } from 'vitest';
import { expiringInDays, hostingEnds, isExpired, isNewUpload } from './mix-lifecycle.js';

const at = (iso: string) => new Date(iso);

describe('hosting and the New badge', () => {
  test('hosting ends twelve months after publishing, on the same day or the month’s last', () => {
    expect(hostingEnds(at('2026-11-22T14:00:00Z')).toISOString()).toBe('2027-11-22T14:00:00.000Z');
    expect(hostingEnds(at('2028-02-29T09:30:00Z')).toISOString()).toBe('2029-02-28T09:30:00.000Z');
    expect(hostingEnds(at('2027-01-31T00:00:00Z')).toISOString()).toBe('2028-01-31T00:00:00.000Z');
  });

  test('days left round up, never below zero; unpublished mixes have none', () => {
    const mix = { publishedAt: at('2026-01-01T00:00:00Z'), expiresAt: at('2027-01-01T00:00:00Z') };
    expect(expiringInDays(mix, at('2026-01-01T00:00:00Z'))).toBe(365);
    expect(expiringInDays(mix, at('2026-12-31T23:00:00Z'))).toBe(1);
    expect(expiringInDays(mix, at('2027-02-01T00:00:00Z'))).toBe(0);
    expect(expiringInDays({ publishedAt: null, expiresAt: null })).toBeNull();
    expect(isExpired(mix, at('2026-12-31T23:59:59Z'))).toBe(false);
    expect(isExpired(mix, at('2027-01-01T00:00:00Z'))).toBe(true);
  });

  test('the New badge lasts seven days from publishing', () => {
    const mix = { publishedAt: at('2026-03-01T12:00:00Z'), expiresAt: null };
    expect(isNewUpload(mix, at('2026-03-08T11:59:59Z'))).toBe(true);
    expect(isNewUpload(mix, at('2026-03-08T12:00:00Z'))).toBe(false);
    expect(isNewUpload({ publishedAt: null, expiresAt: null })).toBe(false);
  });
});
