import { describe, expect, test } from 'vitest';
import { InvalidInputError } from '../../../shared/errors.js';
import { LOOKUP_MAX_LENGTH, LOOKUP_MAX_ROWS, MISSING_FIELDS, parseCatalogueRow, parseLookupRows, RefusedRow } from './catalogue.inputs.js';

const lookupRefusal = (input: unknown): string => {
  try {
    parseLookupRows(input);
  } catch (error) {
    if (error instanceof InvalidInputError) return error.message;
    throw error;
  }
  throw new Error('accepted');
};
const row = { source: 'beatport', external_id: '42', title: 'Midnight Drive', artists: 'Kora Vale' };
const rowRefusal = (raw: unknown): string => {
  try {
    parseCatalogueRow(raw);
  } catch (error) {
    if (error instanceof RefusedRow) return error.message;
    throw error;
  }
  throw new Error('accepted');
};

describe('lookup rows', () => {
  test('1 to 30 rows of artist and title, white space made one space, numbers as text', () => {
    expect(MISSING_FIELDS).toBe('Missing: Empty fields');
    expect(parseLookupRows([{ artist: ' Kora \n\t Vale ', title: 'Midnight  Drive' }])).toEqual([
      { artist: 'Kora Vale', title: 'Midnight Drive' },
    ]);
    expect(parseLookupRows([{ artist: 808, title: 303 }])).toEqual([{ artist: '808', title: '303' }]);
    expect(
      parseLookupRows([
        { creators: 'A', name: 'T' },
        { artists: 'B', title: 'U' },
      ]),
    ).toEqual([
      { artist: 'A', title: 'T' },
      { artist: 'B', title: 'U' },
    ]);
    expect(parseLookupRows(Array(LOOKUP_MAX_ROWS).fill({ artist: 'a', title: 't' }))).toHaveLength(30);
    expect(lookupRefusal(Array(LOOKUP_MAX_ROWS + 1).fill({ artist: 'a', title: 't' }))).toBe('tracks_array must hold at most 30 rows');
    expect(lookupRefusal({ artist: 'a', title: 't' })).toBe('tracks_array must be a list of rows with artist and title');
    expect(lookupRefusal([])).toBe('Missing: Empty fields');
    for (const bad of [{ artist: 'a' }, { title: 't' }, { artist: ' ', title: 't' }, { artist: ['a'], title: 't' }, null, 'row']) {
      expect(lookupRefusal([{ artist: 'a', title: 't' }, bad]), JSON.stringify(bad)).toBe('Missing: Empty fields');
    }
  });

  test('each field at most 300 characters and storable, the row and field named', () => {
    expect(parseLookupRows([{ artist: 'a'.repeat(LOOKUP_MAX_LENGTH), title: 't' }])[0]?.artist).toHaveLength(300);
    expect(
      lookupRefusal([
        { artist: 'a', title: 't' },
        { artist: 'a'.repeat(301), title: 't' },
      ]),
    ).toBe('Row 2: artist must be at most 300 characters');
    expect(lookupRefusal([{ artist: 'a', title: 't'.repeat(301) }])).toBe('Row 1: title must be at most 300 characters');
    expect(lookupRefusal([{ artist: 'a\u0000', title: 't' }])).toBe('Row 1: artist contains a NUL character');
    expect(lookupRefusal([{ artist: 'a', title: '\uD800' }])).toBe('Row 1: title contains an unpaired surrogate (not valid Unicode)');
  });
});

describe('catalogue rows', () => {
  test('a plain row: its fields, no label, cover or date, flags false', () => {
    expect(parseCatalogueRow(row)).toEqual({
      source: 'beatport',
      externalId: '42',
      title: 'Midnight Drive',
      creators: [{ id: null, name: 'Kora Vale' }],
      label: null,
      cover: null,
      releaseDate: null,
      buy: false,
      newRelease: false,
    });
    expect(parseCatalogueRow({ ...row, external_id: undefined, externalId: 'x' }).externalId).toBe('x');
    expect(parseCatalogueRow({ ...row, external_id: undefined, id: 'y' }).externalId).toBe('y');
    for (const raw of [null, 'row', [row], 5]) expect(rowRefusal(raw)).toBe('not an object');
  });

  test('required texts: present, within their length, storable', () => {
    expect(rowRefusal({ ...row, source: ' ' })).toBe('source is missing');
    expect(rowRefusal({ ...row, source: 's'.repeat(41) })).toBe('source is longer than 40 characters');
    expect(parseCatalogueRow({ ...row, source: 's'.repeat(40) }).source).toHaveLength(40);
    expect(rowRefusal({ ...row, external_id: undefined })).toBe('external_id is missing');
    expect(rowRefusal({ ...row, external_id: 'e'.repeat(201) })).toBe('external_id is longer than 200 characters');
    expect(rowRefusal({ ...row, title: 't'.repeat(301) })).toBe('title is longer than 300 characters');
    expect(rowRefusal({ ...row, title: 'a\u0000' })).toBe('title contains a NUL character');
    expect(rowRefusal({ ...row, cover: 'c'.repeat(301) })).toBe('cover is longer than 300 characters');
    expect(parseCatalogueRow({ ...row, cover: ' https://c.example/a.jpg ' }).cover).toBe('https://c.example/a.jpg');
    expect(parseCatalogueRow({ ...row, cover: '  ' }).cover).toBeNull();
    expect(parseCatalogueRow({ ...row, cover: null }).cover).toBeNull();
  });

  test('flags: booleans, or their words in any case, blank false', () => {
    for (const yes of [true, 'true', '1', 1, 'YES', ' y ']) expect(parseCatalogueRow({ ...row, buy: yes }).buy, String(yes)).toBe(true);
    for (const no of [false, 'false', '0', 0, 'No', 'n', '', null, undefined]) {
      expect(parseCatalogueRow({ ...row, new_release: no }).newRelease, String(no)).toBe(false);
    }
    expect(parseCatalogueRow({ ...row, newRelease: 'yes' }).newRelease).toBe(true);
    expect(parseCatalogueRow({ ...row, buy: null }).buy).toBe(false);
    expect(rowRefusal({ ...row, buy: 'maybe' })).toBe('buy must be true or false');
    expect(rowRefusal({ ...row, new_release: 2 })).toBe('new_release must be true or false');
  });

  test('release dates: a real YYYY-MM-DD from 1900 to 2100', () => {
    expect(parseCatalogueRow({ ...row, release_date: '2024-02-29' }).releaseDate).toBe('2024-02-29');
    expect(parseCatalogueRow({ ...row, releaseDate: '1900-01-01' }).releaseDate).toBe('1900-01-01');
    expect(parseCatalogueRow({ ...row, release_date: '2100-12-31' }).releaseDate).toBe('2100-12-31');
    expect(parseCatalogueRow({ ...row, release_date: '' }).releaseDate).toBeNull();
    for (const date of ['2023-02-29', '2024-13-01', '24-01-01', '2024-1-01', 'x024-01-01', '2024-01-0x', '2024/01/01', 'soon']) {
      expect(rowRefusal({ ...row, release_date: date }), date).toBe('release_date must be a date as YYYY-MM-DD');
    }
    expect(rowRefusal({ ...row, release_date: '2024-01-011' })).toBe('release_date is longer than 10 characters');
    expect(rowRefusal({ ...row, release_date: '1899-12-31' })).toBe('release_date must be between 1900 and 2100');
    expect(rowRefusal({ ...row, release_date: '2101-01-01' })).toBe('release_date must be between 1900 and 2100');
  });

  test('creators: a list of names or objects, or names split at ; and |, with ids one per name', () => {
    const creators = (extra: Record<string, unknown>) => parseCatalogueRow({ ...row, artists: undefined, ...extra }).creators;
    expect(creators({ artists: 'Kora Vale ; Ama | Zoë' })).toEqual([
      { id: null, name: 'Kora Vale' },
      { id: null, name: 'Ama' },
      { id: null, name: 'Zoë' },
    ]);
    expect(creators({ artist: 'A & B, C' })).toEqual([{ id: null, name: 'A & B, C' }]);
    expect(creators({ creators: 'A;B', creator_ids: 'x1; x2' })).toEqual([
      { id: 'x1', name: 'A' },
      { id: 'x2', name: 'B' },
    ]);
    expect(creators({ artists: 'A|B', artist_ids: 'x1|x2' })).toEqual([
      { id: 'x1', name: 'A' },
      { id: 'x2', name: 'B' },
    ]);
    expect(creators({ artists: 'A', artist_ids: ' ' })).toEqual([{ id: null, name: 'A' }]);
    expect(rowRefusal({ ...row, artists: 'A;B', artist_ids: 'x1' })).toBe('artist_ids must give one id per artist');
    expect(rowRefusal({ ...row, artists: 'A', artist_ids: 'i'.repeat(201) })).toBe('artist_ids is longer than 200 characters');
    expect(rowRefusal({ ...row, artists: `A;${'n'.repeat(201)}` })).toBe('artists is longer than 200 characters');
    expect(rowRefusal({ ...row, artists: 'n'.repeat(1001) })).toBe('artists is longer than 1000 characters');
    expect(rowRefusal({ ...row, artists: ' ; | ' })).toBe('artists is missing');
    expect(rowRefusal({ ...row, artists: undefined })).toBe('artists is missing');
    expect(creators({ creators: ['A', { id: 'x', name: 'B' }, { name: 'C' }] })).toEqual([
      { id: null, name: 'A' },
      { id: 'x', name: 'B' },
      { id: null, name: 'C' },
    ]);
    expect(creators({ artists: Array(20).fill('A') })).toHaveLength(20);
    expect(rowRefusal({ ...row, artists: Array(21).fill('A') })).toBe('at most 20 artists per track');
    expect(rowRefusal({ ...row, artists: [] })).toBe('artists is missing');
    expect(rowRefusal({ ...row, artists: ['A', ' '] })).toBe('creators[1] is missing');
    expect(rowRefusal({ ...row, artists: ['A', null] })).toBe('creators[1].name is missing');
    expect(rowRefusal({ ...row, artists: [{ name: 'A', id: 'i'.repeat(201) }] })).toBe('creators[0].id is longer than 200 characters');
  });

  test('labels: an object with a name, or label (label_name) and label_id', () => {
    const label = (extra: Record<string, unknown>) => parseCatalogueRow({ ...row, ...extra }).label;
    expect(label({ label: { id: 'l1', name: 'Night Shift' } })).toEqual({ id: 'l1', name: 'Night Shift' });
    expect(label({ label: { name: 'Night Shift' } })).toEqual({ id: null, name: 'Night Shift' });
    expect(label({ label: 'Night Shift', label_id: 'l2' })).toEqual({ id: 'l2', name: 'Night Shift' });
    expect(label({ label_name: 'Night Shift' })).toEqual({ id: null, name: 'Night Shift' });
    expect(label({ label: ' ' })).toBeNull();
    expect(label({ label: ['Night Shift'] })).toBeNull();
    expect(rowRefusal({ ...row, label: { id: 'l1' } })).toBe('label.name is missing');
    expect(rowRefusal({ ...row, label: 'n'.repeat(201) })).toBe('label is longer than 200 characters');
    expect(rowRefusal({ ...row, label: 'L', label_id: 'i'.repeat(201) })).toBe('label_id is longer than 200 characters');
    expect(rowRefusal({ ...row, label: { name: 'L', id: 'i'.repeat(201) } })).toBe('label.id is longer than 200 characters');
  });
});
