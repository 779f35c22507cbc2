import { FEED_MAX_RADIUS_KM } from '@mixcrate/api/domain';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTER, readFilter, toGraphQLGenre, wrapIndex, writeFilter } from './feed-filter';

describe('home feed filter', () => {
  it('defaults to every genre within 20,000 km, the filter ceiling shared with the API (docs/home-feed.md#filter)', () => {
    expect(FEED_MAX_RADIUS_KM).toBe(20_000);
    expect(DEFAULT_FILTER).toEqual({ genre: 'all', radiusKm: 20_000 });
    expect(readFilter(new URLSearchParams())).toEqual({ genre: 'all', radiusKm: 20_000 });
  });

  it('reads a genre and radius from the address, ignoring nonsense', () => {
    expect(readFilter(new URLSearchParams('genre=deep_house&km=500'))).toEqual({ genre: 'deep_house', radiusKm: 500 });
    expect(readFilter(new URLSearchParams('genre=polka&km=-3'))).toEqual({ genre: 'all', radiusKm: 20_000 });
    expect(readFilter(new URLSearchParams('km=20001'))).toEqual({ genre: 'all', radiusKm: 20_000 });
    expect(readFilter(new URLSearchParams('km=20000')).radiusKm).toBe(20_000);
    expect(readFilter(new URLSearchParams('km=0')).radiusKm).toBe(0);
  });

  it('writes only what differs from the defaults', () => {
    expect(writeFilter(DEFAULT_FILTER).toString()).toBe('');
    expect(writeFilter({ genre: 'techno', radiusKm: 7 }).toString()).toBe('genre=techno&km=7');
    expect(toGraphQLGenre('rnb_hip_hop')).toBe('RNB_HIP_HOP');
  });

  it('wraps around both ends of the carousel', () => {
    expect(wrapIndex(5, 5)).toBe(0);
    expect(wrapIndex(-1, 5)).toBe(4);
    expect(wrapIndex(2, 5)).toBe(2);
    expect(wrapIndex(3, 0)).toBe(0);
  });
});
