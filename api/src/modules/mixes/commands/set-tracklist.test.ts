import { randomUUID } from 'node:crypto';
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

  test('an entry naming a track the catalogue lacks (an unknown UUID, or no UUID at all) is a 400; manual entries ignore ids', async () => {
    const mixId = await draftMix(t.services, owner);
    await setTracklist(t.services.orm, { viewerId: owner.id, mixId, entries: typed(5) });
    const attempt = (catalogueTrackId: unknown, isManual?: boolean) =>
      setTracklist(t.services.orm, {
        viewerId: owner.id,
        mixId,
        entries: typed(5).map((entry, index) => (index === 1 ? { ...entry, catalogueTrackId, isManual } : entry)),
      });
    const unknown = { status: 400, message: expect.stringMatching(/^Track 2: no such catalogue track/) };
    await expect(attempt(randomUUID())).rejects.toMatchObject(unknown);
    await expect(attempt('not-an-id')).rejects.toMatchObject(unknown);
    await expect(attempt(42)).rejects.toMatchObject(unknown);
    expect(await storedTitles(mixId)).toEqual(['Track 1', 'Track 2', 'Track 3', 'Track 4', 'Track 5']);
    const manual = await attempt(randomUUID(), true);
    expect(manual[1].track).toMatchObject({ title: 'Track 2', isManual: true });
  });

  test('start and end times are kept; ends come after starts and starts never go back', async () => {
    const mixId = await draftMix(t.services, owner);
    const timed = typed(5).map((entry, index) => ({ ...entry, startTime: index * 300, endTime: index === 4 ? null : index * 300 + 310 }));
    const tracklist = await setTracklist(t.services.orm, { viewerId: owner.id, mixId, entries: timed });
    expect(tracklist.map((entry) => [entry.startTime, entry.endTime])).toEqual([
      [0, 310],
      [300, 610],
      [600, 910],
      [900, 1210],
      [1200, null],
    ]);
    const stored = await t.services.tracks.tracklistsOf([mixId]);
    expect(stored.get(mixId)?.map((entry) => [entry.startTime, entry.endTime])).toEqual(
      tracklist.map((entry) => [entry.startTime, entry.endTime]),
    );
    // Some entries without times, and two starting together, are fine.
    const partial = typed(5).map((entry, index) => ({ ...entry, startTime: [10, null, 10, null, 99.5][index] }));
    expect((await setTracklist(t.services.orm, { viewerId: owner.id, mixId, entries: partial })).map((entry) => entry.startTime)).toEqual([
      10,
      null,
      10,
      null,
      99.5,
    ]);

    const attempt = (change: (entry: Record<string, unknown>, index: number) => Record<string, unknown>) =>
      setTracklist(t.services.orm, { viewerId: owner.id, mixId, entries: typed(5).map(change) });
    await expect(attempt((entry, index) => (index === 2 ? { ...entry, startTime: 100, endTime: 100 } : entry))).rejects.toMatchObject({
      status: 400,
      message: 'Track 3: the end time must come after the start time',
    });
    await expect(attempt((entry, index) => ({ ...entry, startTime: index === 3 ? 50 : index * 100 }))).rejects.toMatchObject({
      status: 400,
      message: 'Track 4 starts before the track above it: start times must not go back',
    });
    for (const bad of [-1, '12', Number.NaN, Number.POSITIVE_INFINITY, 3 * 24 * 3600, {}, true]) {
      await expect(attempt((entry, index) => (index === 0 ? { ...entry, startTime: bad } : entry))).rejects.toMatchObject({
        status: 400,
        message: 'Track 1: the start time must be a number of seconds from 0',
      });
      await expect(attempt((entry, index) => (index === 0 ? { ...entry, endTime: bad } : entry))).rejects.toMatchObject({ status: 400 });
    }
    expect((await t.services.tracks.tracklistsOf([mixId])).get(mixId)?.map((entry) => entry.startTime)).toEqual([10, null, 10, null, 99.5]);
  });

  test('times must lie inside the mix when its duration is known', async () => {
    const mixId = await draftMix(t.services, owner);
    await t.services.orm.em.fork().execute('update mix set duration_seconds = 600.5 where id = ?', [mixId]);
    const withTimes = (last: { startTime?: number; endTime?: number }) =>
      setTracklist(t.services.orm, {
        viewerId: owner.id,
        mixId,
        entries: typed(5).map((entry, index) => (index === 4 ? { ...entry, ...last } : { ...entry, startTime: index * 100 })),
      });
    expect((await withTimes({ startTime: 500, endTime: 600.5 }))[4]).toMatchObject({ startTime: 500, endTime: 600.5 });
    const past = { status: 400, message: 'Track 5: its times must be inside the mix, which lasts 600 seconds' };
    await expect(withTimes({ startTime: 601 })).rejects.toMatchObject(past);
    await expect(withTimes({ startTime: 500, endTime: 700 })).rejects.toMatchObject(past);
    expect((await t.services.tracks.tracklistsOf([mixId])).get(mixId)?.[4]).toMatchObject({ startTime: 500, endTime: 600.5 });
  });

  test('choosing a track raises its popularity once per entry; replacing a tracklist counts only the new one', async () => {
    const em = t.services.orm.em.fork();
    const chosen = em.create(Track, { title: 'Popular Track', creators: [{ id: null, name: 'Someone' }] });
    await em.flush();
    const popularity = async () =>
      (await t.services.orm.em.fork().execute<{ popularity: number }[]>('select popularity from track where id = ?', [chosen.id]))[0]
        ?.popularity;
    expect(await popularity()).toBe(0);
    const choose = (mixId: string, times: number) =>
      setTracklist(t.services.orm, {
        viewerId: owner.id,
        mixId,
        entries: typed(5).map((entry, index) => (index < times ? { ...entry, catalogueTrackId: chosen.id } : entry)),
      });
    const first = await draftMix(t.services, owner);
    await choose(first, 1);
    expect(await popularity()).toBe(1);
    await choose(first, 1);
    expect(await popularity()).toBe(1);
    const second = await draftMix(t.services, owner);
    await choose(second, 2);
    expect(await popularity()).toBe(3);
    await choose(first, 0);
    expect(await popularity()).toBe(2);
    // A refused list changes nothing.
    await expect(
      setTracklist(t.services.orm, {
        viewerId: owner.id,
        mixId: first,
        entries: [...typed(4), { title: 'x', creators: ['y'], catalogueTrackId: chosen.id }, { title: '' }],
      }),
    ).rejects.toMatchObject({ status: 400 });
    expect(await popularity()).toBe(2);
  });
});
