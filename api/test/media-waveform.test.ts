import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { foldPeaks, measureWaveform, PEAK_COUNT } from '../src/modules/media/waveform.js';
import { createServices } from '../src/services.js';
import { FOLDERS, newFileName, objectKey } from '../src/storage/storage.js';
import { createTestApp, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import { sineMp3 } from './support/audio.js';
import { solidImage } from './support/images.js';
import { createMixOver } from './support/upload.js';
import { waitFor } from './support/wait.js';

let t: TestApp;
let owner: Member;
let cover: Buffer;

beforeAll(async () => {
  t = await createTestApp({ WAVEFORM_RETRY_LIMIT: '2', WAVEFORM_RETRY_DELAY_SECONDS: '1' });
  owner = await signUpMember(t.app);
  cover = await solidImage('jpeg', 400, 400);
}, 60_000);
afterAll(() => t.close());

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.services.orm.em.fork().getConnection().execute<T[]>(text, params);

interface WaveformRow {
  waveform_state: string;
  peaks: number[] | null;
  duration_seconds: number | null;
}
const waveformOf = async (id: string) =>
  (await sql<WaveformRow>('select waveform_state, peaks, duration_seconds from mix where id = ?', [id]))[0];
const settled = (id: string, timeoutMs = 30_000) =>
  waitFor(`the waveform job of mix ${id} to settle`, () => waveformOf(id), { until: (row) => row.waveform_state !== 'pending', timeoutMs });

async function upload(mp3: Buffer): Promise<string> {
  return (await createMixOver(t.app, owner.token, { cover, mp3, title: 'Waveform test' }))._id;
}

/** A draft whose MP3 is whatever the test puts (or does not put) in storage. */
async function draftWithAudio(audio: Buffer | null): Promise<{ id: string; key: string }> {
  const mp3 = newFileName('mp3');
  const key = objectKey(FOLDERS.mixAudio, mp3);
  if (audio) await t.services.storage.put(key, audio);
  const mix = await t.services.mixes.createDraft({
    ownerId: owner.id,
    title: 'Made by hand',
    genre: 'house',
    cover: newFileName('jpg'),
    mp3,
  });
  return { id: mix.id, key };
}

describe('the waveform job', () => {
  test('after upload it stores the exact duration and about 1,800 peaks that follow the loudness', async () => {
    // 40 s rising from silence to 0.6 of full scale.
    const id = await upload(sineMp3({ seconds: 40, envelope: (at) => at * 0.6 }));
    const row = await settled(id);
    expect(row.waveform_state).toBe('ready');
    expect(row.peaks).toHaveLength(PEAK_COUNT);
    // Decoded samples over the sample rate: 40 s, give or take the encoder's padding of a frame or two.
    expect(row.duration_seconds).toBeGreaterThan(39.95);
    expect(row.duration_seconds).toBeLessThan(40.1);
    const peaks = row.peaks ?? [];
    expect(peaks[0]).toBeLessThan(0.02);
    expect(peaks[PEAK_COUNT - 1]).toBeGreaterThan(0.55);
    // The middle of the ramp is half as loud as its end.
    expect(Math.abs(peaks[PEAK_COUNT / 2] - 0.3)).toBeLessThan(0.05);
    for (const value of peaks) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
  });

  test('the waveform and its state are a field of Mix in GraphQL, for whoever may see the mix', async () => {
    const id = await upload(sineMp3({ seconds: 5, envelope: () => 0.5 }));
    await settled(id);
    const query = 'query ($id: ID!) { mix(id: $id) { id waveform { state peaks durationSeconds } } }';
    type Answer = { mix: { waveform: { state: string; peaks: number[]; durationSeconds: number } } | null };
    const mine = await gql<Answer>(t.app, query, { id }, owner.token);
    expect(mine.data?.mix?.waveform.state).toBe('READY');
    expect(mine.data?.mix?.waveform.peaks).toHaveLength(PEAK_COUNT);
    expect(mine.data?.mix?.waveform.durationSeconds).toBeGreaterThan(4.9);
    // A draft is its owner's only; once published anyone sees it.
    expect((await gql<Answer>(t.app, query, { id })).data?.mix).toBeNull();
    await sql(`update mix set status = 'published', published_at = now(), expires_at = now() + interval '1 year' where id = ?`, [id]);
    expect((await gql<Answer>(t.app, query, { id })).data?.mix?.waveform.state).toBe('READY');
  });

  test('while the job has not run, the waveform is PENDING with the duration estimated at upload', async () => {
    const { id } = await draftWithAudio(null);
    await sql('update mix set duration_seconds = 61.5 where id = ?', [id]);
    const answer = await gql<{ mix: { waveform: { state: string; peaks: number[] | null; durationSeconds: number } } }>(
      t.app,
      'query ($id: ID!) { mix(id: $id) { waveform { state peaks durationSeconds } } }',
      { id },
      owner.token,
    );
    expect(answer.data?.mix.waveform).toEqual({ state: 'PENDING', peaks: null, durationSeconds: 61.5 });
  });

  test('the waveforms of a page of mixes cost one query', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) ids.push((await draftWithAudio(null)).id);
    await sql(`update mix set status = 'published', published_at = now(), expires_at = now() + interval '1 year' where id in (?)`, [ids]);
    const forMixes = vi.spyOn(t.services.media.waveforms, 'forMixes');
    const answer = await gql<{ mixesByUser: { nodes: { id: string; waveform: { state: string } }[] } }>(
      t.app,
      'query ($userName: String!) { mixesByUser(userName: $userName) { nodes { id waveform { state } } } }',
      { userName: owner.userName },
    );
    const nodes = answer.data?.mixesByUser.nodes ?? [];
    expect(nodes.length).toBeGreaterThanOrEqual(3);
    expect(nodes.find((node) => node.id === ids[2])?.waveform.state).toBe('PENDING');
    expect(forMixes).toHaveBeenCalledTimes(1);
    forMixes.mockRestore();
  });

  test('a job that fails is retried, and succeeds once the cause is gone', async () => {
    const audio = sineMp3({ seconds: 3 });
    const { id, key } = await draftWithAudio(null);
    await t.services.media.waveforms.enqueue(id);
    // The MP3 is not in storage yet: the first attempt fails and the job waits to retry.
    const failedOnce = await waitFor(
      'the waveform job to fail once',
      () => sql<{ retry_count: number; state: string }>('select retry_count, state from pgboss.job where id = ?', [id]),
      { until: (rows) => rows[0]?.retry_count >= 1 },
    );
    expect(failedOnce[0].retry_count).toBeGreaterThanOrEqual(1);
    expect((await waveformOf(id)).waveform_state).toBe('pending');
    await t.services.storage.put(key, audio);
    const row = await settled(id);
    expect(row.waveform_state).toBe('ready');
  });

  test('a job that keeps failing ends as failed, and the mix can still be published', async () => {
    // Its MP3 never reaches storage.
    const { id } = await draftWithAudio(null);
    await t.services.media.waveforms.enqueue(id);
    const row = await settled(id, 40_000);
    expect(row.waveform_state).toBe('failed');
    const [job] = await sql<{ retry_count: number; state: string }>('select retry_count, state from pgboss.job where id = ?', [id]);
    expect(job).toMatchObject({ retry_count: 2, state: 'failed' });
    // Publishing never looks at the waveform.
    const tracks = Array.from({ length: 5 }, (_, index) => ({
      creators: ['Artist'],
      title: `Track ${index + 1}`,
      isManual: true,
      catalogueTrackId: null,
    }));
    await t.services.mixes.setTracklist(owner.id, id, tracks);
    const published = await t.services.payments.publish(owner.id, { mixId: id, code: 'free-mix' });
    expect(published.status).toBe('published');
  }, 60_000);

  test('audio that is mostly undecodable fails the job instead of drawing noise', async () => {
    const garbage = Buffer.concat([sineMp3({ seconds: 1 }).subarray(0, 4), randomBytes(60_000)]);
    await expect(measureWaveform(() => Readable.from([garbage], { objectMode: false }), 1)).rejects.toThrow(/undecodable|No MPEG audio/);
  });

  test('queueing the same mix twice runs one job', async () => {
    const { id } = await draftWithAudio(sineMp3({ seconds: 2 }));
    await Promise.all([t.services.media.waveforms.enqueue(id), t.services.media.waveforms.enqueue(id)]);
    await settled(id);
    const [{ jobs }] = await sql<{ jobs: string }>(
      `select count(*) as jobs from (select id from pgboss.job where id = ? union all select id from pgboss.archive where id = ?) j`,
      [id, id],
    );
    expect(Number(jobs)).toBe(1);
  });

  test('mixes still waiting for their waveform are picked up when the server starts again', async () => {
    const { id } = await draftWithAudio(sineMp3({ seconds: 2 }));
    expect((await waveformOf(id)).waveform_state).toBe('pending');
    // A second process on the same database (as after a restart) finds the pending mix and measures it.
    const log = (await import('pino')).default({ level: 'silent' });
    const restarted = await createServices(t.config, t.services.orm, log);
    try {
      expect((await settled(id)).waveform_state).toBe('ready');
    } finally {
      await restarted.close();
    }
  });
});

test("the queue's own tables (schema pgboss) stay outside the ORM's schema", async () => {
  const { id } = await draftWithAudio(sineMp3({ seconds: 1 }));
  await t.services.media.waveforms.enqueue(id);
  const [{ tables }] = await sql<{ tables: string }>(
    `select count(*) as tables from information_schema.tables where table_schema = 'pgboss'`,
  );
  expect(Number(tables)).toBeGreaterThan(0);
  const diff = await t.services.orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true });
  expect(diff.trim()).toBe('');
});

describe('folding block peaks', () => {
  test('cuts evenly and keeps the loudest of each slice', () => {
    expect(foldPeaks([0.1, 0.5, 0.2, 0.9], 2)).toEqual([0.5, 0.9]);
    expect(foldPeaks([0.1, 0.2], 5)).toEqual([0.1, 0.2]);
    expect(foldPeaks([1.7, -0], 2)).toEqual([1, 0]);
    expect(foldPeaks([], 3)).toEqual([]);
  });
});
