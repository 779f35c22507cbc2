import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type Member, signUpMember, type TestApp } from '../../../../test/support/app.js';
import { draftMix } from '../../../../test/support/mixes.js';
import { Track } from '../../tracks/track.entity.js';
import { setTracklist } from './set-tracklist.js';

let t: TestApp;
let owner: Member;
let stranger: Member;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpMember(t.app);
  stranger = await signUpMember(t.app);
});
afterAll(() => t.close());

const typed = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ title: `Track ${index + 1}`, creators: [`Artist ${index + 1}`] }));

const storedTitles = async (mixId: string) =>
  (
    await t.services.orm.em
      .fork()
      .execute<{ title: string }[]>(
        'select t.title from mix_track mt join track t on t.id = mt.track_id where mt.mix_id = ? order by mt.position',
        [mixId],
      )
  ).map((row) => row.title);

describe('set-tracklist', () => {
  test('keeps the order given; an entry naming a catalogue track uses it, every other entry becomes a manual track', async () => {
    const em = t.services.orm.em.fork();
    const known = em.create(Track, { title: 'Known Track', creators: [{ id: null, name: 'Known Artist' }] });
    await em.flush();
    const mixId = await draftMix(t.services, owner);
    const entries = [{ title: 'ignored', creators: ['ignored'], catalogueTrackId: known.id }, ...typed(4)];
    const tracklist = await setTracklist(t.services.orm, { viewerId: owner.id, mixId, entries });
    expect(tracklist.map((entry) => entry.position)).toEqual([1, 2, 3, 4, 5]);
    expect(tracklist[0].track).toMatchObject({ id: known.id, isManual: false });
    expect(tracklist.slice(1).every((entry) => entry.track.isManual)).toBe(true);
    expect(await storedTitles(mixId)).toEqual(['Known Track', 'Track 1', 'Track 2', 'Track 3', 'Track 4']);
  });

  test('5 to 30 entries, each with an artist and a title; a refused list leaves the previous one as it was', async () => {
    const mixId = await draftMix(t.services, owner);
    await setTracklist(t.services.orm, { viewerId: owner.id, mixId, entries: typed(5) });
    const attempt = (entries: unknown) => setTracklist(t.services.orm, { viewerId: owner.id, mixId, entries });
    await expect(attempt(typed(4))).rejects.toMatchObject({ status: 400, message: 'A tracklist needs 5 to 30 tracks; this one has 4' });
    await expect(attempt(typed(31))).rejects.toMatchObject({ status: 400 });
    const noArtist = typed(5).map((entry, index) => (index === 2 ? { ...entry, creators: [' '] } : entry));
    await expect(attempt(noArtist)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^Missing: Empty fields \(track 3/),
    });
    const unstorable = typed(5).map((entry, index) => (index === 0 ? { ...entry, title: 'a\u0000b' } : entry));
    await expect(attempt(unstorable)).rejects.toMatchObject({ status: 400 });
    expect(await storedTitles(mixId)).toEqual(['Track 1', 'Track 2', 'Track 3', 'Track 4', 'Track 5']);
  });

  test('only the owner sets a tracklist', async () => {
    const mixId = await draftMix(t.services, owner);
    await expect(setTracklist(t.services.orm, { viewerId: stranger.id, mixId, entries: typed(5) })).rejects.toMatchObject({ status: 403 });
    expect(await storedTitles(mixId)).toEqual([]);
  });
});
