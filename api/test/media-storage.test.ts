import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.js';
import { GcsStorage } from '../src/storage/gcs-storage.js';
import { LocalStorage } from '../src/storage/local-storage.js';
import { contentTypeOf, FOLDERS, newFileName, objectKey, parseObjectKey } from '../src/storage/storage.js';
import { createStorage } from '../src/storage/storage-factory.js';
import { createTestApp, signUpMember } from './support/app.js';
import { sineMp3 } from './support/audio.js';
import { type GcsStandIn, startGcsStandIn } from './support/gcs-stand-in.js';
import { solidImage } from './support/images.js';
import { orderedMultipart } from './support/upload.js';

let standIn: GcsStandIn;
let storage: GcsStorage;
beforeAll(async () => {
  standIn = await startGcsStandIn();
  storage = new GcsStorage({ bucket: 'mixcrate-test', apiEndpoint: standIn.url, projectId: 'test' });
});
afterAll(() => standIn.close());

/** Its first bytes, then a failure: a client that goes away mid-upload. */
const failingAfter = (data: Buffer) =>
  Readable.from(
    (async function* () {
      yield data;
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('client went away');
    })(),
    { objectMode: false },
  );

/** A stream that hands its bytes over in small pieces, as an upload arrives. */
const trickle = (data: Buffer, piece = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < data.length; at += piece) yield data.subarray(at, at + piece);
    })(),
    { objectMode: false },
  );

describe('the Google Cloud Storage driver, through the real SDK against a local stand-in', () => {
  test('a streamed upload lands as one object under the media key, through a resumable session', async () => {
    const key = objectKey(FOLDERS.mixAudio, newFileName('mp3'));
    const data = randomBytes(3 * 1024 * 1024 + 17);
    await storage.put(key, trickle(data));
    expect(standIn.objects.get(`mixcrate-test/${key}`)?.data.equals(data)).toBe(true);
    expect(standIn.objects.get(`mixcrate-test/${key}`)?.contentType).toBe('audio/mpeg');
    expect(
      standIn.requests.some((line) => line.startsWith('POST /upload/storage/v1/b/mixcrate-test/o?') && line.includes('resumable')),
    ).toBe(true);
  });

  test('a buffer is stored with one simple upload', async () => {
    const key = objectKey(FOLDERS.mixImages, newFileName('jpg'));
    const data = randomBytes(5000);
    await storage.put(key, data);
    expect(standIn.objects.get(`mixcrate-test/${key}`)?.data.equals(data)).toBe(true);
    expect(standIn.objects.get(`mixcrate-test/${key}`)?.contentType).toBe('image/jpeg');
  });

  test('stat tells size and modification time; a missing object is null', async () => {
    const key = objectKey(FOLDERS.mixAudio, newFileName('mp3'));
    const before = Date.now();
    await storage.put(key, randomBytes(1234));
    const info = await storage.stat(key);
    expect(info?.size).toBe(1234);
    expect(info?.modified.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await storage.stat(objectKey(FOLDERS.mixAudio, newFileName('mp3')))).toBeNull();
  });

  test('a whole download and a ranged download return exactly the bytes asked', async () => {
    const key = objectKey(FOLDERS.mixAudio, newFileName('mp3'));
    const data = randomBytes(700_000);
    await storage.put(key, trickle(data));
    expect((await buffer(storage.get(key))).equals(data)).toBe(true);
    for (const [start, end] of [
      [0, 0],
      [1000, 263_143],
      [699_000, 699_999],
    ]) {
      const part = await buffer(storage.get(key, { start, end }));
      expect(part.equals(data.subarray(start, end + 1))).toBe(true);
    }
  });

  test('an upload whose source fails midway leaves no object', async () => {
    const key = objectKey(FOLDERS.mixAudio, newFileName('mp3'));
    await expect(storage.put(key, failingAfter(randomBytes(300_000)))).rejects.toThrow('client went away');
    expect(standIn.objects.has(`mixcrate-test/${key}`)).toBe(false);
    expect(await storage.stat(key)).toBeNull();
  });

  test('delete removes the object and is quiet when it is already gone', async () => {
    const key = objectKey(FOLDERS.profileImages, newFileName('jpg'));
    await storage.put(key, randomBytes(10));
    await storage.delete(key);
    expect(standIn.objects.has(`mixcrate-test/${key}`)).toBe(false);
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  test('URLs point at our own delivery route, so access rules apply whatever the driver', () => {
    expect(storage.publicUrl('mix/mix-audio/abcdefgh12.mp3')).toBe('/media/mix/mix-audio/abcdefgh12.mp3');
  });

  test('GCS_BUCKET picks this driver; without it files go to DATA_DIR/media', () => {
    const withBucket = loadConfig({ GCS_BUCKET: 'mixcrate-media', GCS_API_ENDPOINT: standIn.url, DATA_DIR: '/tmp/x' });
    expect(createStorage(withBucket)).toBeInstanceOf(GcsStorage);
    expect(createStorage(loadConfig({ DATA_DIR: '/tmp/x' }))).toBeInstanceOf(LocalStorage);
  });
});

test('with GCS_BUCKET set, create-mix streams into the bucket and /media serves ranges from it', async () => {
  const t = await createTestApp({ GCS_BUCKET: 'mixcrate-app', GCS_API_ENDPOINT: standIn.url });
  try {
    const member = await signUpMember(t.app);
    const mp3 = sineMp3({ seconds: 4 });
    const body = orderedMultipart([
      { name: 'cover', fileName: 'c.png', type: 'image/png', data: await solidImage('png', 200, 200) },
      { name: 'title', value: 'In the cloud' },
      { name: 'mp3', fileName: 'm.mp3', type: 'audio/mpeg', data: mp3 },
      { name: 'genre', value: 'edm' },
    ]);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/mix/create-mix',
      headers: { ...body.headers, 'x-auth-token': member.token },
      payload: body.payload,
    });
    expect(created.statusCode).toBe(201);
    const audioKey = created.json().mp3.slice('/media/'.length);
    expect(standIn.objects.get(`mixcrate-app/${audioKey}`)?.data.equals(mp3)).toBe(true);
    const ranged = await t.app.inject({ method: 'GET', url: created.json().mp3, headers: { range: 'bytes=1000-1999' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.equals(mp3.subarray(1000, 2000))).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: created.json().cover })).headers['content-type']).toBe('image/jpeg');
  } finally {
    await t.close();
  }
});

describe('local disk storage', () => {
  let root: string;
  let local: LocalStorage;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mixcrate-storage-'));
    local = new LocalStorage(root);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  test('put, stat, whole and ranged reads, delete', async () => {
    const key = objectKey(FOLDERS.mixAudio, newFileName('mp3'));
    const data = randomBytes(1_000_000);
    await local.put(key, trickle(data));
    expect((await local.stat(key))?.size).toBe(data.length);
    expect((await buffer(local.get(key))).equals(data)).toBe(true);
    expect((await buffer(local.get(key, { start: 262_144, end: 524_287 }))).equals(data.subarray(262_144, 524_288))).toBe(true);
    await local.delete(key);
    expect(await local.stat(key)).toBeNull();
  });

  test('a failed write leaves neither the object nor a partial file', async () => {
    const key = objectKey(FOLDERS.mixAudio, newFileName('mp3'));
    await expect(local.put(key, failingAfter(randomBytes(100_000)))).rejects.toThrow('client went away');
    expect(await local.stat(key)).toBeNull();
    expect(await readdir(join(root, FOLDERS.mixAudio))).toEqual([]);
  });
});

describe('object keys', () => {
  test('are the media folders plus a random name; nothing else is a key', () => {
    expect(newFileName('mp3')).toMatch(/^[0-9a-f]{32}\.mp3$/);
    for (const name of ['../x.mp3', 'a/b.mp3', '..', '', 'x.mp3\u0000', '%2e%2e.mp3', 'short.mp3'.replace('short', 'abc')]) {
      expect(() => objectKey(FOLDERS.mixAudio, name)).toThrow('unsafe file name');
    }
    expect(parseObjectKey('mix/mix-audio/0123456789abcdef.mp3')).toEqual({ folder: 'mix/mix-audio', fileName: '0123456789abcdef.mp3' });
    expect(parseObjectKey('app-assets/track-covers/0123456789abcdef.png')?.folder).toBe('app-assets/track-covers');
    for (const key of [
      'mix/mix-audio/../../x.mp3',
      'postgres/PG_VERSION',
      'mix/0123456789abcdef.mp3',
      'mix/mix-audio/a/0123456789abcdef.mp3',
    ]) {
      expect(parseObjectKey(key)).toBeNull();
    }
  });

  test('tell their content type by the extension we gave them', () => {
    expect(contentTypeOf('mix/mix-audio/x.mp3')).toBe('audio/mpeg');
    expect(contentTypeOf('mix/mix-images/x.jpg')).toBe('image/jpeg');
    expect(contentTypeOf('app-assets/track-covers/x.webp')).toBe('image/webp');
  });
});
