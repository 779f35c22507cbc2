import { describe, expect, test } from 'vitest';
import { refusal } from '../../../test/support/refusal.js';
import { encodeCursor } from '../../shared/cursor.js';
import { GENRE_CODES } from '../../shared/domain.js';
import { parseInput } from '../../shared/inputs.js';
import { LENGTH_SECONDS, restSearchInput, SEARCH_KINDS, searchInput, suggestInput } from './search.inputs.js';

const all = [...SEARCH_KINDS];

describe('search inputs', () => {
  test('the typed text: white space made one space, 1 to 100 characters, storable', () => {
    expect(parseInput(suggestInput, { q: '  deep \n\t house ' })).toEqual({ q: 'deep house' });
    expect(parseInput(suggestInput, { q: 'x'.repeat(100) }).q).toHaveLength(100);
    expect(refusal(suggestInput, { q: 'x'.repeat(101) })).toBe('q must be at most 100 characters');
    expect(refusal(suggestInput, { q: ' \n ' })).toBe('q must hold something to search for');
    expect(refusal(suggestInput, { q: 5 })).toBe('q must be text');
    expect(refusal(suggestInput, { q: 'a\u0000' })).toBe('q contains a NUL character');
  });

  test('GraphQL: kinds (all when none, each once), a page after a cursor, the filters', () => {
    expect(parseInput(searchInput, { q: 'moss' })).toEqual({ q: 'moss', types: all, first: 20, offset: 0 });
    expect(parseInput(searchInput, { q: 'moss', types: [] }).types).toEqual(all);
    expect(parseInput(searchInput, { q: 'moss', types: null }).types).toEqual(all);
    expect(parseInput(searchInput, { q: 'moss', types: ['track', 'mix', 'track'] }).types).toEqual(['track', 'mix']);
    expect(refusal(searchInput, { q: 'moss', types: ['song'] })).toBe('type must be one of mix, member, track');
    expect(refusal(searchInput, { q: 'moss', types: 'mix' })).toBe('types must be a list');
    expect(parseInput(searchInput, { q: 'moss', types: Array(100).fill('mix') }).types).toEqual(['mix']);
    expect(refusal(searchInput, { q: 'moss', types: Array(101).fill('mix') })).toBe('types holds at most 100 items');
    expect(parseInput(searchInput, { q: 'moss', first: 50, after: encodeCursor(['19']) })).toMatchObject({ first: 50, offset: 20 });
    expect(parseInput(searchInput, { q: 'moss', after: '' }).offset).toBe(0);
    expect(refusal(searchInput, { q: 'moss', first: 51 })).toBe('first must be a whole number from 1 to 50');
    expect(refusal(searchInput, { q: 'moss', after: 5 })).toBe('after must be a cursor');
    expect(refusal(searchInput, { q: 'moss', after: 'x'.repeat(201) })).toBe('Invalid cursor: pass a cursor of an earlier page');
    for (const key of [['12345'], ['x'], ['1', '2'], []]) {
      expect(refusal(searchInput, { q: 'moss', after: encodeCursor(key) }), key.join()).toBe(
        'Invalid cursor: pass a cursor of an earlier page',
      );
    }
    expect(parseInput(searchInput, { q: 'moss', after: encodeCursor(['9999']) }).offset).toBe(10_000);
  });

  test('filters: a genre (all is none), a whole distance from 1 to 20,000 km, a length', () => {
    const filters = (extra: Record<string, unknown>) => parseInput(searchInput, { q: 'moss', ...extra });
    expect(filters({ genre: 'all' }).genre).toBeNull();
    expect(filters({ genre: GENRE_CODES[2] }).genre).toBe(GENRE_CODES[2]);
    expect(refusal(searchInput, { q: 'moss', genre: 'polka' })).toBe('genre must be one of the genres');
    expect(filters({ withinKm: 1 }).withinKm).toBe(1);
    expect(filters({ withinKm: 20_000 }).withinKm).toBe(20_000);
    for (const withinKm of [0, 20_001, 2.5, '5']) {
      expect(refusal(searchInput, { q: 'moss', withinKm }), String(withinKm)).toBe('withinKm must be a whole number from 1 to 20000');
    }
    expect(filters({ length: 'long' }).length).toBe('long');
    expect(refusal(searchInput, { q: 'moss', length: 'epic' })).toBe('length must be one of short, medium, long');
    expect(LENGTH_SECONDS.short).toEqual({ min: null, max: 1800 });
    expect(LENGTH_SECONDS.medium).toEqual({ min: 1800, max: 5400 });
    expect(LENGTH_SECONDS.long).toEqual({ min: 5400, max: null });
  });

  test('REST: one kind or all, numbered pages of 20 from 0 to 10, the distance as text', () => {
    expect(parseInput(restSearchInput, { q: 'moss' })).toEqual({
      q: 'moss',
      types: all,
      first: 20,
      offset: 0,
      genre: undefined,
      withinKm: undefined,
      length: undefined,
    });
    expect(parseInput(restSearchInput, { q: 'moss', type: 'member', page: '2' })).toMatchObject({ types: ['member'], offset: 40 });
    expect(parseInput(restSearchInput, { q: 'moss', type: 'all' }).types).toEqual(all);
    expect(parseInput(restSearchInput, { q: 'moss', page: 10 }).offset).toBe(200);
    expect(refusal(restSearchInput, { q: 'moss', page: 11 })).toBe('page must be at most 10');
    expect(refusal(restSearchInput, { q: 'moss', type: 'song' })).toBe('type must be all or one of mix, member, track');
    expect(parseInput(restSearchInput, { q: 'moss', within_km: '25', genre: GENRE_CODES[0], length: 'short' })).toMatchObject({
      withinKm: 25,
      genre: GENRE_CODES[0],
      length: 'short',
    });
    expect(refusal(restSearchInput, { q: 'moss', within_km: '0' })).toBe('withinKm must be a whole number from 1 to 20000');
  });
});
