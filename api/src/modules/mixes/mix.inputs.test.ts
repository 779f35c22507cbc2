import { describe, expect, test } from 'vitest';
import { refusal } from '../../../test/support/refusal.js';
import { encodeCursor } from '../../shared/cursor.js';
import { FEED_MAX_RADIUS_KM, GENRE_CODES } from '../../shared/domain.js';
import { parseInput } from '../../shared/inputs.js';
import { TRACKLIST_MISSING_FIELDS } from '../../shared/rules.js';
import {
  byUserInput,
  feedFilterInput,
  genreInput,
  mixIdInput,
  newDraftInput,
  parseMixPage,
  TRACK_TIME_MAX_SECONDS,
  tracklistInput,
  tracklistVersionsInput,
} from './mix.inputs.js';

const ID = '0b5f4a4e-8a3c-4c52-9d53-2b1e4f0c9a11';
const entry = (index: number, extra: Record<string, unknown> = {}) => ({
  title: `Track ${index}`,
  creators: [`Artist ${index}`],
  ...extra,
});
const five = (change: (index: number) => Record<string, unknown> = () => ({})) =>
  [1, 2, 3, 4, 5].map((index) => entry(index, change(index)));

describe('mix inputs', () => {
  test('tracklist versions: how many, 20 by default, 1 to 50, numbers as text', () => {
    expect(parseInput(tracklistVersionsInput, { mixId: ID })).toEqual({ mixId: ID, first: 20 });
    expect(parseInput(tracklistVersionsInput, { mixId: ID, first: '7' })).toEqual({ mixId: ID, first: 7 });
    expect(parseInput(tracklistVersionsInput, { mixId: 'x', first: 50 })).toEqual({ mixId: null, first: 50 });
    expect(parseInput(tracklistVersionsInput, { mixId: ID, first: null }).first).toBe(20);
    expect(refusal(tracklistVersionsInput, { mixId: ID, first: '   ' })).toBe('first must be a whole number from 1 to 50');
    expect(refusal(tracklistVersionsInput, { mixId: ID, first: '51' })).toBe('first must be a whole number from 1 to 50');
    expect(mixIdInput.parse(ID)).toBe(ID);
  });

  test('genres by code, an unknown one named with the list', () => {
    expect(genreInput.parse(GENRE_CODES[0])).toBe(GENRE_CODES[0]);
    expect(refusal(genreInput, 'polka')).toBe(`Unknown genre; use one of: ${GENRE_CODES.join(', ')}`);
  });

  test('a new draft: a trimmed title of 1 to 200 characters (a blank one is the missing item "Title")', () => {
    const draft = { ownerId: ID, title: '  Night  ', genre: GENRE_CODES[0], cover: 'c.jpg', mp3: 'm.mp3' };
    expect(parseInput(newDraftInput, draft)).toEqual({ ...draft, title: 'Night', audioBytes: 0 });
    expect(refusal(newDraftInput, { ...draft, title: '   ' })).toBe('Title');
    expect(refusal(newDraftInput, { ...draft, title: 'x'.repeat(201) })).toBe('title must be at most 200 characters');
    expect(parseInput(newDraftInput, { ...draft, title: 'x'.repeat(200) }).title).toHaveLength(200);
    expect(refusal(newDraftInput, { ...draft, title: 'a\u0000' })).toBe('title contains a NUL character');
    expect(refusal(newDraftInput, { ...draft, audioBytes: -1 })).toBe('audioBytes must be at least 0');
    expect(refusal(newDraftInput, { ...draft, durationSeconds: 0 })).toBe('durationSeconds must be at least 0');
    expect(refusal(newDraftInput, { ...draft, bitrate: 1.5 })).toMatch(/^bitrate /);
  });

  test('a tracklist: 5 to 30 entries, each with a title and an artist, its times in order', () => {
    const parsed = parseInput(tracklistInput, five());
    expect(parsed).toHaveLength(5);
    expect(parsed[0]).toEqual({ title: 'Track 1', creators: ['Artist 1'], startTime: null, endTime: null, catalogueTrackId: null });
    expect(parseInput(tracklistInput, [...five(), ...five(), ...five(), ...five(), ...five(), ...five()])).toHaveLength(30);
    expect(refusal(tracklistInput, five().slice(0, 4))).toBe('A tracklist needs 5 to 30 tracks; this one has 4');
    const many = [...five(), ...five(), ...five(), ...five(), ...five(), ...five(), entry(31)];
    expect(refusal(tracklistInput, many)).toBe('A tracklist needs 5 to 30 tracks; this one has 31');
    expect(refusal(tracklistInput, 'tracks')).toBe('tracks must be a list of 5 to 30 track entries');
    const missing = `${TRACKLIST_MISSING_FIELDS} (track 2 needs an artist and a title)`;
    for (const broken of [
      { title: '  ' },
      { title: undefined },
      { creators: [] },
      { creators: ['  '] },
      { creators: 'A' },
      { creators: [5] },
    ]) {
      expect(
        refusal(
          tracklistInput,
          five((index) => (index === 2 ? broken : {})),
        ),
        JSON.stringify(broken),
      ).toBe(missing);
    }
    expect(refusal(tracklistInput, [entry(1), null, entry(3), entry(4), entry(5)])).toBe(missing);
    expect(
      parseInput(
        tracklistInput,
        five((index) => ({ creators: ['', ` Artist ${index} `, 'Other'] })),
      )[0]?.creators,
    ).toEqual(['Artist 1', 'Other']);
    // At most 20 artists an entry.
    expect(
      parseInput(
        tracklistInput,
        five(() => ({ creators: Array(20).fill('A') })),
      )[0]?.creators,
    ).toHaveLength(20);
    expect(
      refusal(
        tracklistInput,
        five((index) => ({ creators: Array(index === 1 ? 21 : 1).fill('A') })),
      ),
    ).toBe(`${TRACKLIST_MISSING_FIELDS} (track 1 needs an artist and a title)`);
  });

  test('a tracklist names catalogue tracks by id unless manual; other ids name no track', () => {
    const named = parseInput(
      tracklistInput,
      five((index) => (index === 1 ? { catalogueTrackId: ID } : {})),
    );
    expect(named[0]?.catalogueTrackId).toBe(ID);
    for (const id of [null, '', undefined]) {
      expect(
        parseInput(
          tracklistInput,
          five(() => ({ catalogueTrackId: id })),
        )[0]?.catalogueTrackId,
      ).toBeNull();
    }
    expect(
      parseInput(
        tracklistInput,
        five(() => ({ catalogueTrackId: 'nope', isManual: true })),
      )[0]?.catalogueTrackId,
    ).toBeNull();
    expect(
      parseInput(
        tracklistInput,
        five(() => ({ catalogueTrackId: ID, isManual: true })),
      )[0]?.catalogueTrackId,
    ).toBeNull();
    expect(
      refusal(
        tracklistInput,
        five((index) => (index === 3 ? { catalogueTrackId: 'nope' } : {})),
      ),
    ).toBe('Track 3: no such catalogue track; choose one of the options or add it as a manual track');
    expect(
      refusal(
        tracklistInput,
        five((index) => (index === 3 ? { catalogueTrackId: 7, isManual: false } : {})),
      ),
    ).toMatch(/^Track 3: no such/);
  });

  test("a tracklist's covers are http(s) addresses or blank", () => {
    const covers = (cover: unknown) =>
      parseInput(
        tracklistInput,
        five(() => ({ cover })),
      )[0]?.cover;
    expect(covers('https://img.example/a.jpg')).toBe('https://img.example/a.jpg');
    expect(covers('http://img.example/a.jpg')).toBe('http://img.example/a.jpg');
    expect(covers('')).toBeNull();
    for (const cover of ['javascript:alert(1)', 'ftp://img.example/a.jpg', 'not a url']) {
      expect(
        refusal(
          tracklistInput,
          five(() => ({ cover })),
        ),
        cover,
      ).toBe('A track cover must be an http(s) URL');
    }
  });

  test("a tracklist's times: seconds from 0 to two days, each end after its start, starts never going back", () => {
    expect(TRACK_TIME_MAX_SECONDS).toBe(172_800);
    const timed = parseInput(
      tracklistInput,
      five((index) => ({ startTime: index * 60, endTime: index * 60 + 30 })),
    );
    expect(timed.map((row) => [row.startTime, row.endTime])[4]).toEqual([300, 330]);
    expect(
      parseInput(
        tracklistInput,
        five(() => ({ startTime: 0, endTime: TRACK_TIME_MAX_SECONDS })),
      )[0]?.startTime,
    ).toBe(0);
    expect(
      refusal(
        tracklistInput,
        five((index) => (index === 2 ? { startTime: -1 } : {})),
      ),
    ).toBe('Track 2: the start time must be a number of seconds from 0');
    expect(
      refusal(
        tracklistInput,
        five((index) => (index === 2 ? { startTime: 'soon' } : {})),
      ),
    ).toBe('Track 2: the start time must be a number of seconds from 0');
    expect(
      refusal(
        tracklistInput,
        five((index) => (index === 4 ? { endTime: TRACK_TIME_MAX_SECONDS + 1 } : {})),
      ),
    ).toBe('Track 4: the end time must be a number of seconds from 0');
    expect(
      refusal(
        tracklistInput,
        five((index) => (index === 3 ? { startTime: 100, endTime: 100 } : {})),
      ),
    ).toBe('Track 3: the end time must come after the start time');
    expect(
      refusal(
        tracklistInput,
        five((index) => ({ startTime: index === 4 ? 10 : index * 60 })),
      ),
    ).toBe('Track 4 starts before the track above it: start times must not go back');
    // Equal starts do not go back; entries without a start are skipped over.
    expect(
      parseInput(
        tracklistInput,
        five(() => ({ startTime: 60 })),
      ),
    ).toHaveLength(5);
    expect(
      parseInput(
        tracklistInput,
        five((index) => ({ startTime: index === 2 ? null : index * 60 })),
      ),
    ).toHaveLength(5);
    expect(
      refusal(
        tracklistInput,
        five((index) => ({ startTime: index === 1 ? 120 : index === 2 ? null : index === 3 ? 60 : 500 })),
      ),
    ).toBe('Track 3 starts before the track above it: start times must not go back');
    expect(
      parseInput(
        tracklistInput,
        five((index) => ({ endTime: index === 1 ? 10 : null })),
      )[0]?.endTime,
    ).toBe(10);
  });

  test('the feed filter: all genres and the whole earth by default; the radius from 0 to 20,000 km, as text too', () => {
    expect(parseInput(feedFilterInput, {})).toEqual({ genre: 'all', radiusKm: FEED_MAX_RADIUS_KM });
    expect(parseInput(feedFilterInput, { genre: null, radiusKm: null })).toEqual({ genre: 'all', radiusKm: FEED_MAX_RADIUS_KM });
    expect(parseInput(feedFilterInput, { genre: GENRE_CODES[1], radiusKm: '25' })).toEqual({ genre: GENRE_CODES[1], radiusKm: 25 });
    expect(parseInput(feedFilterInput, { radiusKm: 0 }).radiusKm).toBe(0);
    const radius = 'search_radius must be a number of km from 0 to 20,000';
    for (const radiusKm of [-1, 20_001, 'far', '  ']) expect(refusal(feedFilterInput, { radiusKm }), String(radiusKm)).toBe(radius);
    expect(refusal(feedFilterInput, { genre: 'polka' })).toBe(`Unknown genre; use all or one of: ${GENRE_CODES.join(', ')}`);
    expect(parseInput(feedFilterInput, { from: { latitude: 1, longitude: 2 } }).from).toEqual({ latitude: 1, longitude: 2 });
  });

  test("a member's mixes: a user name of at most 100 characters, and a mix to leave out", () => {
    expect(parseInput(byUserInput, { userName: ' ana ', excludeMixId: 'x' })).toEqual({ userName: 'ana', excludeMixId: null });
    expect(refusal(byUserInput, { userName: 'x'.repeat(101) })).toBe('userName must be at most 100 characters');
  });

  test('mix pages: numbered from 0 with a limit (20 by default, at most 50), or by cursor', () => {
    expect(parseMixPage({ page: 2 })).toEqual({ size: 20, backward: false, cursor: null, offset: 40 });
    expect(parseMixPage({ page: '1', limit: 5 })).toEqual({ size: 5, backward: false, cursor: null, offset: 5 });
    expect(parseMixPage({ page: undefined, limit: null })).toEqual({ size: 20, backward: false, cursor: null, offset: 0 });
    expect(() => parseMixPage({ page: 0, limit: 51 })).toThrow('first must be a whole number from 1 to 50');
    expect(() => parseMixPage({ page: -1 })).toThrow('page must be a whole number from 0');
    const key = ['2026-11-24T10:00:00.123456Z', ID];
    expect(parseMixPage({ first: 3, after: encodeCursor(key) })).toEqual({ size: 3, backward: false, cursor: key, offset: 0 });
    expect(parseMixPage({})).toEqual({ size: 20, backward: false, cursor: null, offset: 0 });
    expect(() => parseMixPage({ first: 51 })).toThrow('first must be a whole number from 1 to 50');
    expect(() => parseMixPage({ after: encodeCursor(['x']) })).toThrow('Invalid cursor');
  });
});
