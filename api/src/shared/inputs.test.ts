import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { refusal } from '../../test/support/refusal.js';
import {
  CURSOR_PAGE_DEFAULT_SIZE,
  cursorPage,
  idOrNull,
  isStorableText,
  moment,
  pageNumber,
  pageSize,
  parseInput,
  storable,
  text,
  whyUnstorable,
} from './inputs.js';

/** The message of the 400 that parseInput answers for `value`. */
const ID = '0b5f4a4e-8a3c-4c52-9d53-2b1e4f0c9a11';

describe('moment', () => {
  const start = moment('start');

  test('takes ISO text with a zone, epoch milliseconds, and a Date (as GraphQL scalars hand it over)', () => {
    const expected = new Date('2026-11-24T10:00:00Z');
    expect(start.parse('2026-11-24T10:00:00Z')).toEqual(expected);
    expect(start.parse(expected.getTime())).toEqual(expected);
    expect(start.parse(String(expected.getTime()))).toEqual(expected);
    expect(start.parse(expected)).toEqual(expected);
  });

  test('refuses what is not a moment, or lies outside 2000 to 2200, with the field named', () => {
    for (const value of ['2026-02-30T10:00:00Z', '2026-11-24', 'soon', 1.5, new Date(Number.NaN), true]) {
      expect(() => start.parse(value), String(value)).toThrow(/start must be a date/);
    }
    for (const value of [new Date('1999-12-31T23:59:59Z'), '-000001-01-01T00:00:00Z', 1e300]) {
      expect(() => start.parse(value), String(value)).toThrow(/start must be a date/);
    }
  });
});

describe('parseInput', () => {
  test("a schema's own message is the answer; a generated one names the field, or the input as a whole", () => {
    expect(refusal(z.object({ name: z.string('Name, please') }), {})).toBe('Name, please');
    expect(refusal(z.object({ name: z.string() }), {})).toBe('name is required');
    expect(refusal(z.object({ name: z.string() }), { name: 5 })).toBe('name must be a string');
    expect(refusal(z.object({ tags: z.array(z.string()) }), { tags: 'x' })).toBe('tags must be a list');
    expect(refusal(z.object({ a: z.object({ b: z.number() }) }), { a: { b: 'x' } })).toBe('a.b must be a number');
    expect(refusal(z.string(), 1)).toBe('The input must be a string');
    expect(refusal(z.object({ name: z.string().max(2) }), { name: 'abc' })).toBe('name must be at most 2 characters');
    expect(refusal(z.object({ name: z.string().min(2) }), { name: 'a' })).toBe('name must be at least 2 characters');
    expect(refusal(z.object({ tags: z.array(z.string()).max(1) }), { tags: ['a', 'b'] })).toBe('tags must be at most 1 items');
    expect(refusal(z.object({ tags: z.array(z.string()).min(1) }), { tags: [] })).toBe('tags must be at least 1 items');
    expect(refusal(z.object({ n: z.number().max(3) }), { n: 4 })).toBe('n must be at most 3');
    expect(refusal(z.object({ n: z.number().min(3) }), { n: 2 })).toBe('n must be at least 3');
    expect(refusal(z.object({ kind: z.enum(['a', 'b']) }), { kind: 'c' })).toBe('kind must be one of: a, b');
    expect(refusal(z.object({ mail: z.email() }), { mail: 'x' })).toBe('mail is not a valid email');
    expect(refusal(z.strictObject({ a: z.string() }), { a: 'x', b: 1, c: 2 })).toBe('The input has unknown fields: b, c');
    expect(refusal(z.object({ n: z.number().multipleOf(2) }), { n: 3 })).toBe('n is not valid');
    expect(parseInput(z.object({ n: z.number() }), { n: 1 })).toEqual({ n: 1 });
  });

  test('text PostgreSQL cannot store: the field named before why, or the given message alone', () => {
    expect(refusal(z.object({ title: text(10) }), { title: 'a\u0000b' })).toBe('title contains a NUL character');
    expect(refusal(z.object({ title: text(10) }), { title: 'a\uD800b' })).toBe('title contains an unpaired surrogate (not valid Unicode)');
    expect(refusal(z.object({ title: storable(z.string(), 'Bad title') }), { title: '\u0000' })).toBe('Bad title');
  });
});

describe('storable text', () => {
  test('NUL and unpaired surrogate halves are refused, paired ones are text', () => {
    expect(whyUnstorable('fine')).toBeNull();
    expect(whyUnstorable('a\u0000')).toBe('contains a NUL character');
    expect(whyUnstorable('\uD83D')).toBe('contains an unpaired surrogate (not valid Unicode)');
    expect(whyUnstorable('\uDE00x')).toBe('contains an unpaired surrogate (not valid Unicode)');
    expect(whyUnstorable('x\uD83D\uDE00y')).toBeNull();
    expect(isStorableText('😀')).toBe(true);
    expect(isStorableText('\u0000')).toBe(false);
  });

  test('text(max) trims, then counts', () => {
    expect(text(3).parse('  abc  ')).toBe('abc');
    expect(text(3).safeParse('abcd').success).toBe(false);
  });

  test('idOrNull: a UUID as given, anything else null', () => {
    expect(idOrNull.parse(ID)).toBe(ID);
    expect(idOrNull.parse(ID.toUpperCase())).toBe(ID.toUpperCase());
    for (const value of [`${ID}x`, `x${ID}`, 'nope', 5, null, undefined, {}]) expect(idOrNull.parse(value)).toBeNull();
  });
});

describe('pages', () => {
  test('a numbered page: a whole number (or its text) from the first page to the bound', () => {
    expect(pageNumber(0).parse(0)).toBe(0);
    expect(pageNumber(1).parse('3')).toBe(3);
    expect(pageNumber(1, 5).parse(5)).toBe(5);
    expect(refusal(pageNumber(1), 0)).toBe('page must be a whole number from 1');
    expect(refusal(pageNumber(0), -1)).toBe('page must be a whole number from 0');
    expect(refusal(pageNumber(0), 1.5)).toBe('page must be a whole number from 0');
    expect(refusal(pageNumber(0), 'two')).toBe('page must be a whole number from 0');
    expect(refusal(pageNumber(0), 100_001)).toBe('page must be at most 100,000');
    expect(pageNumber(0).parse(100_000)).toBe(100_000);
    expect(refusal(pageNumber(0, 10), 11)).toBe('page must be at most 10');
  });

  test('a page size: a whole number from 1 to the most, the fallback when left out', () => {
    const size = pageSize(50, 20);
    expect(size.parse(undefined)).toBe(20);
    expect(size.parse(1)).toBe(1);
    expect(size.parse(50)).toBe(50);
    for (const value of [0, 51, 2.5, '5']) expect(refusal(size, value)).toBe('first must be a whole number from 1 to 50');
  });

  test('a cursor page: forward by default, backward with last or before, never both ways', () => {
    const page = cursorPage(30, (cursor) => `decoded ${cursor}`);
    expect(CURSOR_PAGE_DEFAULT_SIZE).toBe(20);
    expect(page.parse({})).toEqual({ size: 20, backward: false, cursor: null });
    expect(page.parse({ first: 5, after: 'c1' })).toEqual({ size: 5, backward: false, cursor: 'decoded c1' });
    expect(page.parse({ first: null, after: null, last: null, before: null })).toEqual({ size: 20, backward: false, cursor: null });
    expect(page.parse({ last: 7 })).toEqual({ size: 7, backward: true, cursor: null });
    expect(page.parse({ before: 'c2' })).toEqual({ size: 20, backward: true, cursor: 'decoded c2' });
    expect(page.parse({ after: '' })).toEqual({ size: 20, backward: false, cursor: null });
    expect(page.parse({ first: 30 }).size).toBe(30);
    const bothWays = 'Page one way: pass first (with after) to page forward, or last (with before) to page backward, not both';
    for (const mixed of [
      { first: 1, last: 1 },
      { after: 'a', before: 'b' },
      { first: 1, before: 'b' },
      { last: 1, after: 'a' },
    ]) {
      expect(refusal(page, mixed)).toBe(bothWays);
    }
    for (const name of ['first', 'last'] as const) {
      for (const value of [0, 31, 1.5, 'x']) expect(refusal(page, { [name]: value })).toBe(`${name} must be a whole number from 1 to 30`);
    }
    for (const name of ['after', 'before'] as const) {
      expect(refusal(page, { [name]: 5 })).toBe(`${name} must be a cursor`);
      expect(refusal(page, { [name]: 'x'.repeat(201) })).toBe('Invalid cursor: pass a cursor of an earlier page');
      expect(page.safeParse({ [name]: 'x'.repeat(200) }).success).toBe(true);
    }
  });
});

describe('moment, edge by edge', () => {
  const at = moment('at');
  const message = 'at must be a date (ISO 8601 with a time zone, or epoch milliseconds)';

  test('every part of the text within its range, offsets with or without a colon, fractions of a second', () => {
    expect(at.parse('2026-11-24T10:00Z')).toEqual(new Date('2026-11-24T10:00:00Z'));
    expect(at.parse('2026-11-24T23:59:59.123456Z')).toEqual(new Date('2026-11-24T23:59:59.123Z'));
    expect(at.parse('2026-11-24T10:00:00+0130')).toEqual(new Date('2026-11-24T08:30:00Z'));
    expect(at.parse('2026-11-24T10:00:00-23:59')).toEqual(new Date('2026-11-25T09:59:00Z'));
    expect(at.parse('2024-02-29T00:00:00Z')).toEqual(new Date('2024-02-29T00:00:00Z'));
    for (const value of [
      '2026-11-24T24:00:00Z',
      '2026-11-24T10:60:00Z',
      '2026-11-24T10:00:60Z',
      '2026-11-24T10:00:00+24:00',
      '2026-11-24T10:00:00+01:60',
      '2026-13-01T10:00:00Z',
      '2026-00-10T10:00:00Z',
      '2025-02-29T10:00:00Z',
      '2026-11-00T10:00:00Z',
      ' 2026-11-24T10:00:00Z',
      '2026-11-24T10:00:00Z ',
      '2026-11-24T10:00:00',
      '1e12',
      '',
    ]) {
      expect(() => at.parse(value), value).toThrow(message);
    }
  });

  test('epoch milliseconds as digits (up to 15), the range from 2000 to 2200 inclusive', () => {
    expect(at.parse(String(Date.UTC(2000, 0, 1)))).toEqual(new Date(Date.UTC(2000, 0, 1)));
    expect(at.parse(Date.UTC(2200, 0, 1))).toEqual(new Date(Date.UTC(2200, 0, 1)));
    expect(() => at.parse(Date.UTC(2200, 0, 1) + 1)).toThrow('at must be a date between 2000 and 2200');
    expect(() => at.parse(Date.UTC(2000, 0, 1) - 1)).toThrow('at must be a date between 2000 and 2200');
    expect(() => at.parse('1234567890123456')).toThrow(message);
    expect(() => at.parse(null)).toThrow(message);
  });
});
