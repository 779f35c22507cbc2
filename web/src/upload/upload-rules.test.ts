import { COVER_RULE, imageProblem, MP3_RULE, missingUploadItems, mp3Problem, normaliseBetaCode } from '@mixcrate/api/rules';
import { describe, expect, it } from 'vitest';
import { placeRecognised, tracklistEntries } from './tracklist';
import { startDraft, type TrackRow } from './upload-state';

const coverProblem = (file: { name: string; size: number }) => imageProblem(COVER_RULE, file);

describe('Upload checks (docs/upload.md#file-rules)', () => {
  it('names every missing item in the documented order, joined with " + "', () => {
    expect(missingUploadItems({ cover: false, title: false, mp3: false, genre: false })).toBe(
      'Cover Image + Title + MP3 audio file + Genre',
    );
    expect(missingUploadItems({ cover: true, title: false, mp3: true, genre: false })).toBe('Title + Genre');
    expect(missingUploadItems({ cover: true, title: true, mp3: true, genre: true })).toBeNull();
  });

  // The same answer as the server's (api/test/media-resumable.test.ts): at most 300 MB, so exactly 314,572,800 bytes is taken.
  it('takes an MP3 of type audio/mpeg of at most 314,572,800 bytes', () => {
    expect(MP3_RULE.maxBytes).toBe(314_572_800);
    expect(mp3Problem({ type: 'audio/mpeg', size: 314_572_800 })).toBeNull();
    expect(mp3Problem({ type: 'audio/mpeg', size: 314_572_801 })).toBe('File too large (max. 300MB)');
    expect(mp3Problem({ type: 'audio/wav', size: 10 })).toBe('Wrong format! Try MP3');
  });

  // The same answer as the server's (api/test/media-upload.test.ts): at most 5 MB, so exactly 5,242,880 bytes is taken.
  it('takes a jpg, jpeg, gif, png or webp cover of at most 5,242,880 bytes', () => {
    for (const name of ['a.jpg', 'a.JPEG', 'a.gif', 'a.png', 'a.webp']) expect(coverProblem({ name, size: 5_242_880 })).toBeNull();
    expect(coverProblem({ name: 'a.png', size: 5_242_881 })).toBe('File too large (max. 5MB)');
    expect(coverProblem({ name: 'a.bmp', size: 10 })).toBe('Wrong format! Use .jpg, .png, .gif, or .webp');
  });

  it('lower-cases and trims the BETA code', () => {
    expect(normaliseBetaCode('  FREE-Mix ')).toBe('free-mix');
  });
});

const row = (artist: string, title: string, recognisedTrackId?: string): TrackRow => ({ artist, title, recognisedTrackId });

describe('recognised tracks in the rows', () => {
  const found = [
    { trackId: 't1', artist: 'A', title: 'One' },
    { trackId: 't2', artist: 'B', title: 'Two' },
  ];

  it('fill the empty rows in order and never change a typed one', () => {
    const rows = [row('Typed', 'Row'), row('', ''), row('', ''), row('', ''), row('', '')];
    const placed = placeRecognised(rows, found, 30);
    expect(placed.slice(0, 3)).toEqual([row('Typed', 'Row'), row('A', 'One', 't1'), row('B', 'Two', 't2')]);
    // Handed again (the next progress event), nothing moves.
    expect(placeRecognised(placed, found, 30)).toEqual(placed);
  });

  it('add rows when none is empty, up to the maximum', () => {
    const full = Array.from({ length: 5 }, (_, index) => row(`A${index}`, `T${index}`));
    expect(placeRecognised(full, found, 6).map((entry) => entry.recognisedTrackId)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      't1',
    ]);
  });
});

describe('the tracklist sent at step 3', () => {
  it('gives recognised catalogue tracks their times, typed ones none, and never lets start times go back', () => {
    const entries = tracklistEntries(
      [
        { kind: 'catalogue', trackId: 't1', title: 'One', creators: ['A'] },
        { kind: 'catalogue', trackId: 't3', title: 'Three', creators: ['C'] },
        { kind: 'manual', row: row(' Typed ', ' Row ') },
        { kind: 'catalogue', trackId: 't2', title: 'Two', creators: ['B'] },
        { kind: 'catalogue', trackId: 't9', title: 'Unheard', creators: ['Z'] },
      ],
      [
        { trackId: 't1', start: 0, end: 40 },
        { trackId: 't2', start: 39, end: 80 },
        { trackId: 't3', start: 79, end: 120 },
      ],
    );
    expect(entries).toEqual([
      { title: 'One', creators: ['A'], catalogueTrackId: 't1', startTime: 0, endTime: 40 },
      { title: 'Three', creators: ['C'], catalogueTrackId: 't3', startTime: 79, endTime: 120 },
      { title: 'Row', creators: ['Typed'], isManual: true },
      // Listed after a track that starts later: sent without times rather than refused.
      { title: 'Two', creators: ['B'], catalogueTrackId: 't2' },
      { title: 'Unheard', creators: ['Z'], catalogueTrackId: 't9' },
    ]);
  });
});

describe('a new draft', () => {
  it('forgets what the later steps kept for the one before, and keeps the step 1 form', () => {
    for (const [key, value] of Object.entries({
      upload_form: '{}',
      mix_id: 'old',
      tracks: '[]',
      append_response: 'confirmed',
      session: 'created',
    }))
      localStorage.setItem(key, value);
    startDraft('new');
    expect([localStorage.getItem('mix_id'), localStorage.getItem('upload_form')]).toEqual(['new', '{}']);
    expect([localStorage.getItem('tracks'), localStorage.getItem('append_response'), localStorage.getItem('session')]).toEqual([
      null,
      null,
      null,
    ]);
  });
});
