import { describe, expect, test } from 'vitest';
import { moment } from './inputs.js';

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
