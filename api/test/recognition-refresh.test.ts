/**
 * Re-recognition: when a reference arrives that mixes were recognised without, those mixes are recognised again -
 * drafts first, a bounded number at a time (RECOGNITION_REFRESH_LIMIT), each once however often it is asked.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { fingerprintReference } from '../src/modules/recognition/recognition.js';
import type { RecognitionView } from '../src/modules/recognition/recognition-jobs.js';
import { createTestApp, type Member, signUpMember, type TestApp } from './support/app.js';
import { solidImage } from './support/images.js';
import { catalogueAndMix, SET, TRUTH, trackIdOf } from './support/recognition.js';
import { referenceAudio, TEST_SAMPLE_RATE } from './support/recognition-test-set/generate.js';
import { createMixOver } from './support/upload.js';
import { waitFor } from './support/wait.js';

/** The first catalogue track the mix plays is fingerprinted only later. */
const LATE = TRUTH[0]?.track as number;

let t: TestApp;
let owner: Member;
let mixMp3: Buffer;
let cover: Buffer;

beforeAll(async () => {
  t = await createTestApp({ RECOGNITION_REFRESH_LIMIT: '1' });
  owner = await signUpMember(t.app);
  cover = await solidImage('jpeg', 400, 400);
  mixMp3 = await catalogueAndMix(t, [LATE]);
}, 180_000);
afterAll(() => t.close());

const sql = <T>(query: string, params: unknown[] = []) => t.services.orm.em.fork().execute<T[]>(query, params);
const states = (ids: string[]) =>
  sql<{ mix_id: string; state: string }>('select mix_id, state from recognition_job where mix_id = any(?::uuid[])', [`{${ids.join(',')}}`]);
const allDone = (rows: { state: string }[]) => rows.length > 0 && rows.every((row) => row.state === 'done');
const found = async (mixId: string) =>
  (
    await sql<{ external_id: string }>(
      'select t.external_id from recognition_result r join track t on t.id = r.track_id where r.mix_id = ? order by r.start',
      [mixId],
    )
  ).map((row) => row.external_id);

test('mixes recognised before a new reference are recognised again with it: drafts first, one at a time, once each', async () => {
  // An older draft and a newer published mix, both recognised without the late track.
  const { _id: draftId } = await createMixOver(t.app, owner.token, { cover, mp3: mixMp3, title: 'Draft' });
  await waitFor("the draft's recognition to finish", () => states([draftId]), { until: allDone, timeoutMs: 90_000 });
  const { _id: publishedId } = await createMixOver(t.app, owner.token, { cover, mp3: mixMp3, title: 'Published' });
  await waitFor('both recognitions to finish', () => states([draftId, publishedId]), {
    until: (rows) => rows.length === 2 && allDone(rows),
    timeoutMs: 60_000,
  });
  await sql(`update mix set status = 'published', published_at = now() where id = ?`, [publishedId]);
  const expected = TRUTH.map((play) => `T${play.track}`);
  expect(await found(draftId)).toEqual(expected.slice(1));
  // Nothing is stale while no reference is newer than the recognitions.
  expect(await t.services.recognitionJobs.refreshStale()).toEqual([]);

  const events: RecognitionView[] = [];
  t.services.recognitionJobs.onProgress((event) => {
    if (event.state === 'done' || (event.state === 'running' && event.fraction === 0)) events.push(event);
  });
  const late = SET.references.find((r) => r.track === LATE);
  if (!late) throw new Error('no late reference');
  await t.services.recognition.storeFingerprints(trackIdOf(LATE), fingerprintReference(referenceAudio(late), TEST_SAMPLE_RATE));
  // Asked again and again while they run: each mix still runs once.
  await Promise.all([t.services.recognitionJobs.refreshSoon(), t.services.recognitionJobs.refreshSoon()]);
  await waitFor('both mixes to be recognised again', () => events.filter((event) => event.state === 'done').length, {
    until: (count) => count >= 2,
    timeoutMs: 90_000,
  });
  await t.services.recognitionJobs.refreshSoon();
  await waitFor('both recognitions to settle after the last refresh', () => states([draftId, publishedId]), {
    until: allDone,
    timeoutMs: 90_000,
  });

  expect(events.map((event) => [event.state, event.mixId === draftId ? 'draft' : 'published'])).toEqual([
    ['running', 'draft'],
    ['done', 'draft'],
    ['running', 'published'],
    ['done', 'published'],
  ]);
  expect(await found(draftId)).toEqual(expected);
  expect(await found(publishedId)).toEqual(expected);
  expect(await t.services.recognitionJobs.refreshStale()).toEqual([]);
}, 400_000);
