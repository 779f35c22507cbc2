import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { beforeAll, describe, expect, type TestContext, test } from 'vitest';
import { AdvisoryLocks } from '../src/db/advisory-locks.js';
import { UploadStaging } from '../src/modules/media/upload-staging.js';
import { FOLDERS, newFileName, objectKey } from '../src/storage/storage.js';
import { createTestApp, createTestDatabase, dropTestDatabase } from './support/app.js';
import { filesUnder, sineMp3 } from './support/audio.js';
import { solidImage } from './support/images.js';
import { typedTracks } from './support/mixes.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';
import { orderedMultipart, startRawRequest } from './support/upload.js';
import { waitFor } from './support/wait.js';

/**
 * Issue 14: the real server in a child process, SIGKILLed in the middle of each kind of write, then started again on
 * the same DATA_DIR and database. Whatever the moment of the crash, the restarted server holds no orphan file and no
 * half-written row, continues what can be continued (a resumable upload, a waveform job), and answers a retry.
 */

let cover: Buffer;
/** About 20 s of MP3: small enough to upload in a blink. */
let shortMp3: Buffer;
/** Five minutes of MP3 (about 5 MB): its upload takes many chunks and its waveform job seconds of decoding. */
let longMp3: Buffer;

beforeAll(async () => {
  cover = await solidImage('png', 500, 500);
  // The encoder is slow; a plain frame stream (no Xing header) stays a valid MP3 when repeated.
  const piece = sineMp3({ seconds: 5, kbps: 128, envelope: () => 0.5 });
  shortMp3 = Buffer.concat(Array.from({ length: 4 }, () => piece));
  longMp3 = Buffer.concat(Array.from({ length: 60 }, () => piece));
}, 30_000);

interface Stage {
  databaseUrl: string;
  dataDir: string;
  db: pg.Client;
  server: ServerProcess;
  /** SIGKILLs the server, then starts it again on the same DATA_DIR and database. */
  crashAndRestart(): Promise<void>;
}

/** A database and a DATA_DIR of the test's own, and the server on them; all of it goes when the test ends. */
async function freshStage(onTestFinished: TestContext['onTestFinished']): Promise<Stage> {
  const databaseUrl = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-crash-'));
  const db = new pg.Client({ connectionString: databaseUrl });
  let started: Stage | null = null;
  onTestFinished(async () => {
    await started?.server.stop();
    await db.end();
    await dropTestDatabase(databaseUrl);
    await rm(dataDir, { recursive: true, force: true });
  });
  await db.connect();
  const stage: Stage = {
    databaseUrl,
    dataDir,
    db,
    server: await startServerProcess({ databaseUrl, dataDir }),
    async crashAndRestart() {
      await stage.server.crash();
      stage.server = await startServerProcess({ databaseUrl, dataDir });
    },
  };
  started = stage;
  return stage;
}

async function signUp(server: ServerProcess): Promise<{ id: string; token: string }> {
  const created = await fetch(`${server.url}/api/user/create-user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `crash_${Date.now()}@example.com`, password: 'Mixcrate1!', has_opted_in: false }),
  });
  expect(created.status).toBe(201);
  const { token } = (await created.json()) as { token: string };
  const headers = { 'content-type': 'application/json', 'x-auth-token': token };
  await fetch(`${server.url}/api/user/add-username`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ user_name: `crash_${Date.now()}` }),
  });
  const me = (await (await fetch(`${server.url}/api/user/logged-in-user`, { headers })).json()) as { _id: string };
  return { id: me._id, token };
}

/** The documented create-mix form; `mp3` is the file, or the id or URL of a finished resumable upload. */
function mixForm(mp3: Buffer | string) {
  return orderedMultipart([
    { name: 'cover', fileName: 'cover.png', type: 'image/png', data: cover },
    { name: 'title', value: 'Crash test set' },
    typeof mp3 === 'string' ? { name: 'mp3', value: mp3 } : { name: 'mp3', fileName: 'set.mp3', type: 'audio/mpeg', data: mp3 },
    { name: 'genre', value: 'house' },
  ]);
}

async function createMix(server: ServerProcess, token: string, mp3: Buffer | string): Promise<{ _id: string; mp3: string }> {
  const form = mixForm(mp3);
  const response = await fetch(`${server.url}/api/mix/create-mix`, {
    method: 'POST',
    headers: { ...form.headers, 'x-auth-token': token },
    body: form.payload,
  });
  const body = await response.text();
  expect(response.status, body).toBe(201);
  return JSON.parse(body);
}

/** Files under DATA_DIR/media that no row names: what a crash must never leave. */
async function unreferencedMediaFiles(current: Stage): Promise<string[]> {
  const { rows } = await current.db.query<{ key: string }>(
    `select 'mix/mix-audio/' || mp3 as key from mix
     union all select 'mix/mix-images/' || cover from mix
     union all select 'user/profile-images/' || user_image from app_user where user_image is not null`,
  );
  const referenced = new Set(rows.map((row) => row.key));
  return (await filesUnder(join(current.dataDir, 'media'))).filter((file) => !referenced.has(file));
}

const TUS = { 'tus-resumable': '1.0.0' };
// Two server starts (about 4 s of CPU each) and a sign-up: seconds on a quiet machine, a minute on a loaded one.
const TEST_TIMEOUT_MS = 120_000;
/** How long a poll waits for what it expects: it returns as soon as it sees it. */
const POLL_LIMIT_MS = 30_000;

describe('a SIGKILLed server, started again', () => {
  test(
    'create-mix killed while the MP3 streams into storage leaves no file and no draft',
    async ({ onTestFinished }) => {
      const current = await freshStage(onTestFinished);
      const member = await signUp(current.server);
      const form = mixForm(longMp3);
      const upload = await startRawRequest(
        current.server.port,
        {
          method: 'POST',
          path: '/api/mix/create-mix',
          headers: { ...form.headers, 'content-length': form.payload.length, 'x-auth-token': member.token },
        },
        // The cover, the title and the first megabyte of the MP3; the rest never comes.
        form.payload.subarray(0, form.payload.indexOf(longMp3) + 1_000_000),
      );
      const audioFolder = join(current.dataDir, 'media', 'mix', 'mix-audio');
      const writing = await waitFor('the MP3 to reach storage', () => filesUnder(audioFolder), {
        until: (files) => files.length > 0,
        timeoutMs: POLL_LIMIT_MS,
      });
      expect(writing, 'the MP3 had reached storage when the server died').not.toEqual([]);

      await current.crashAndRestart();
      upload.socket.destroy();

      expect((await current.db.query('select id from mix')).rows).toEqual([]);
      expect(await unreferencedMediaFiles(current)).toEqual([]);
      // And the member can upload again on the restarted server.
      await createMix(current.server, member.token, shortMp3);
      expect(await unreferencedMediaFiles(current)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'a resumable upload killed during a PATCH resumes from the offset the restarted server reports',
    async ({ onTestFinished }) => {
      const current = await freshStage(onTestFinished);
      const member = await signUp(current.server);
      const headers = { ...TUS, 'x-auth-token': member.token };
      const created = await fetch(`${current.server.url}/api/uploads`, {
        method: 'POST',
        headers: { ...headers, 'upload-length': String(longMp3.length) },
      });
      expect(created.status).toBe(201);
      const location = String(created.headers.get('location'));
      const id = location.split('/').pop() ?? '';
      const patch = (offset: number, data: Buffer) =>
        fetch(`${current.server.url}${location}`, {
          method: 'PATCH',
          headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
          body: data,
        });
      const third = Math.floor(longMp3.length / 3);
      expect((await patch(0, longMp3.subarray(0, third))).status).toBe(204);
      expect((await patch(third, longMp3.subarray(third, 2 * third))).status).toBe(204);

      // The third PATCH announces the rest, sends some of it, and the server dies while reading it.
      const offsetStored = async () =>
        Number(
          (await current.db.query<{ offset: string }>('select "offset" from resumable_upload where id = $1', [id])).rows[0]?.offset ?? 0,
        );
      const lastPatch = await startRawRequest(
        current.server.port,
        {
          method: 'PATCH',
          path: location,
          headers: {
            ...headers,
            'upload-offset': 2 * third,
            'content-type': 'application/offset+octet-stream',
            'content-length': longMp3.length - 2 * third,
          },
        },
        longMp3.subarray(2 * third, 2 * third + 300_000),
      );
      expect(
        await waitFor('two thirds of the upload to be stored', offsetStored, {
          until: (offset) => offset >= 2 * third,
          timeoutMs: POLL_LIMIT_MS,
        }),
      ).toBeGreaterThanOrEqual(2 * third);

      await current.crashAndRestart();
      lastPatch.socket.destroy();

      const head = await fetch(`${current.server.url}${location}`, { method: 'HEAD', headers });
      expect(head.status).toBe(200);
      expect(head.headers.get('upload-length')).toBe(String(longMp3.length));
      const offset = Number(head.headers.get('upload-offset'));
      // What the dying process had not stored as a part (at most 8 MiB) is lost; the rest is kept.
      expect(offset).toBeGreaterThanOrEqual(2 * third);
      expect(offset).toBeLessThan(longMp3.length);
      // The store agrees with itself: the parts hold the upload's first `offset` bytes, and its row names the owner.
      const {
        rows: [info],
      } = await current.db.query<{ parts: string[]; size: string; metadata: { owner: string } }>(
        'select parts, size, metadata from resumable_upload where id = $1',
        [id],
      );
      const parts = await Promise.all(
        (info?.parts ?? []).map((at) => readFile(join(current.dataDir, 'media', 'resumable-uploads', id, `${at}.part`))),
      );
      const kept = Buffer.concat(parts);
      expect(kept.length).toBe(offset);
      expect(kept.equals(longMp3.subarray(0, offset))).toBe(true);
      expect(info).toMatchObject({ size: String(longMp3.length), metadata: { owner: member.id } });

      const rest = await patch(offset, longMp3.subarray(offset));
      expect(rest.status).toBe(204);
      expect(rest.headers.get('upload-offset')).toBe(String(longMp3.length));
      const mix = await createMix(current.server, member.token, location);
      const stored = await readFile(join(current.dataDir, 'media', mix.mp3.slice('/media/'.length)));
      expect(stored.equals(longMp3)).toBe(true);
      expect(await unreferencedMediaFiles(current)).toEqual([]);
      expect(await filesUnder(join(current.dataDir, 'media', 'resumable-uploads'))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'a waveform job killed while it decodes is finished by the restarted server',
    async ({ onTestFinished }) => {
      const current = await freshStage(onTestFinished);
      const member = await signUp(current.server);
      const mix = await createMix(current.server, member.token, longMp3);
      const jobState = async () =>
        (await current.db.query<{ state: string }>(`select state from pgboss.job where name = 'mix-waveform' and id = $1`, [mix._id]))
          .rows[0]?.state;
      const waveformState = async () =>
        (await current.db.query<{ waveform_state: string }>('select waveform_state from mix where id = $1', [mix._id])).rows[0]
          ?.waveform_state;
      expect(
        await waitFor('the waveform job to be taken', jobState, { until: (state) => state === 'active', timeoutMs: POLL_LIMIT_MS }),
      ).toBe('active');

      await current.server.crash();
      // The crash came mid-decode: the job was taken and nothing was written.
      expect(await jobState()).toBe('active');
      expect(await waveformState()).toBe('pending');
      await current.crashAndRestart();

      expect(
        await waitFor('the waveform to be made after the restart', waveformState, {
          until: (state) => state !== 'pending',
          timeoutMs: POLL_LIMIT_MS,
        }),
      ).toBe('ready');
      const [row] = (
        await current.db.query('select jsonb_array_length(peaks) as peaks, duration_seconds from mix where id = $1', [mix._id])
      ).rows;
      expect(row.peaks).toBe(1800);
      expect(row.duration_seconds).toBeGreaterThan(299);
      expect(
        await waitFor('the waveform job to complete', jobState, { until: (state) => state === 'completed', timeoutMs: POLL_LIMIT_MS }),
      ).toBe('completed');
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'a publish killed inside its transaction leaves a draft with no entitlement, and a retry publishes',
    async ({ onTestFinished }) => {
      const current = await freshStage(onTestFinished);
      const member = await signUp(current.server);
      const mix = await createMix(current.server, member.token, shortMp3);
      const headers = { 'content-type': 'application/json', 'x-auth-token': member.token };
      const tracks = await fetch(`${current.server.url}/api/mix/update-mix`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ mix_id: mix._id, tracks: typedTracks(5) }),
      });
      expect(tracks.status).toBe(200);

      // Publishing writes the entitlement and the mix, whose trigger then counts it in mix_feed_tally. Holding that table
      // stops the publish right there: mid-transaction, after its writes, before its commit.
      const holder = new pg.Client({ connectionString: current.databaseUrl });
      await holder.connect();
      await holder.query('begin');
      await holder.query('lock table mix_feed_tally in exclusive mode');
      const publish = (server: ServerProcess) =>
        fetch(`${server.url}/api/mix/publish-mix`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ mix_id: mix._id, code: 'free-mix' }),
        });
      const interrupted = publish(current.server).catch((error: unknown) => error);
      const blockedPublish = () =>
        current.db
          .query<{ waiting: number }>(
            `select count(*)::int as waiting from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query ilike '%mix%'`,
          )
          .then((result) => result.rows[0]?.waiting ?? 0);
      // At least the publish; the new draft's waveform job, writing to its mix, may be held by the same lock.
      expect(
        await waitFor('the publish to wait on the held lock', blockedPublish, {
          until: (waiting) => waiting > 0,
          timeoutMs: POLL_LIMIT_MS,
        }),
      ).toBeGreaterThan(0);

      await current.server.crash();
      expect(await interrupted).toBeInstanceOf(Error);
      // The dead server's session wakes up to find its client gone, and rolls back.
      await holder.query('rollback');
      await holder.end();
      await current.crashAndRestart();

      const stateOfMix = async () =>
        (
          await current.db.query<{ status: string; expires_at: Date | null; entitlements: number }>(
            `select status, expires_at, (select count(*)::int from entitlement where mix_id = mix.id) as entitlements from mix where id = $1`,
            [mix._id],
          )
        ).rows[0];
      expect(await stateOfMix()).toEqual({ status: 'draft', expires_at: null, entitlements: 0 });

      const retried = await publish(current.server);
      expect(retried.status, await retried.text()).toBe(200);
      const published = await stateOfMix();
      expect(published).toMatchObject({ status: 'published', entitlements: 1 });
      expect(published?.expires_at).toBeInstanceOf(Date);
      expect((await publish(current.server)).status).toBe(200);
      expect(await unreferencedMediaFiles(current)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('the sweep of abandoned uploads, between processes sharing storage', () => {
  test("never takes a live process's upload in flight; takes a dead one's, whose late commit then fails", async () => {
    const t = await createTestApp();
    const log = pino({ level: 'silent' });
    const stagingOf = async () => {
      const locks = new AdvisoryLocks(t.databaseUrl, log);
      await locks.start();
      return { locks, staging: new UploadStaging(t.services.orm, t.services.storage, locks, t.databaseUrl, log) };
    };
    const writer = await stagingOf();
    const sweeper = await stagingOf();
    try {
      const key = objectKey(FOLDERS.mixAudio, newFileName('mp3'));
      await writer.staging.record(key);
      await t.services.storage.put(key, shortMp3);

      expect(await sweeper.staging.sweep()).toBe(0);
      expect(await t.services.storage.stat(key)).not.toBeNull();

      // The writer's process dies: its liveness connection closes.
      await writer.staging.close();
      expect(await sweeper.staging.sweep()).toBe(1);
      expect(await t.services.storage.stat(key)).toBeNull();
      await expect(writer.staging.commit([key], async () => 'draft')).rejects.toThrow('swept');
    } finally {
      await sweeper.staging.close();
      await Promise.all([writer.locks.close(), sweeper.locks.close()]);
      await t.close();
    }
  });
});
