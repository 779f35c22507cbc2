import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { type ClientRequest, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { COVER_RULE, imageProblem, MP3_RULE } from '../src/shared/rules.js';
import { pipeIntoStorage } from '../src/storage/storage.js';
import { createTestApp, type Member, signUpMember, type TestApp } from './support/app.js';
import { filesUnder, silentWav, sineMp3 } from './support/audio.js';
import { imageBomb, solidImage } from './support/images.js';
import { type FormPart, filePartHead, orderedMultipart, startRawRequest } from './support/upload.js';
import { waitFor, waitForEvent } from './support/wait.js';

const IDLE_MS = 600;
let t: TestApp;
let port: number;
let member: Member;
let mp3: Buffer;
let cover: Buffer;

beforeAll(async () => {
  t = await createTestApp({ UPLOAD_IDLE_TIMEOUT_MS: String(IDLE_MS) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  member = await signUpMember(t.app, { latitude: 52.52, longitude: 13.405 });
  mp3 = sineMp3({ seconds: 3 });
  cover = await solidImage('png', 640, 480);
}, 60_000);
afterAll(() => t.close());

let long: Buffer | undefined;
/**
 * A minute of MP3 (about a megabyte, more than the server buffers), made once for the tests that need a long upload:
 * five copies of 12 s, whole frames after whole frames, since encoding a minute afresh takes a busy machine most of a
 * test's bound.
 */
const longMp3 = () => {
  if (!long) {
    const twelveSeconds = sineMp3({ seconds: 12, envelope: () => 0.5 });
    long = Buffer.concat(Array.from({ length: 5 }, () => twelveSeconds));
  }
  return long;
};

const mediaDir = () => join(t.config.DATA_DIR, 'media');
const mixFiles = async () => (await filesUnder(mediaDir())).filter((file) => file.startsWith('mix/'));
const mixCount = async () => Number((await t.services.orm.em.fork().getConnection().execute('select count(*) as n from mix'))[0].n);

function form({
  coverFile = { fileName: 'cover.png', type: 'image/png', data: cover },
  title = 'Warehouse Sunday',
  mp3File = { fileName: 'mix.mp3', type: 'audio/mpeg', data: mp3 },
  genre = 'deep_house',
}: {
  coverFile?: { fileName: string; type: string; data: Buffer } | null;
  title?: string | null;
  mp3File?: { fileName: string; type: string; data: Buffer } | null;
  genre?: string | null;
} = {}) {
  const parts: FormPart[] = [];
  if (coverFile) parts.push({ name: 'cover', ...coverFile });
  if (title !== null) parts.push({ name: 'title', value: title });
  if (mp3File) parts.push({ name: 'mp3', ...mp3File });
  if (genre !== null) parts.push({ name: 'genre', value: genre });
  return orderedMultipart(parts);
}

async function createMix(body: ReturnType<typeof form>, token: string | null = member.token) {
  return t.app.inject({
    method: 'POST',
    url: '/api/mix/create-mix',
    headers: { ...body.headers, ...(token ? { 'x-auth-token': token } : {}) },
    payload: body.payload,
  });
}

/** Every refused upload must leave exactly what was there before: no new row, no new file. */
async function expectNothingLeft(before: { rows: number; files: string[] }) {
  expect(await mixCount()).toBe(before.rows);
  expect(await mixFiles()).toEqual(before.files);
}
const snapshot = async () => ({ rows: await mixCount(), files: await mixFiles() });

/** A JPEG grown to exactly `size` bytes with comment segments after its start marker (decoders skip comments). */
function jpegOfSize(jpeg: Buffer, size: number): Buffer {
  const segments: Buffer[] = [];
  let missing = size - jpeg.length;
  while (missing > 0) {
    // A segment is its marker (2 bytes), its length (2 bytes, counting itself) and at most 65,533 bytes of comment.
    let body = Math.min(65_533, missing - 4);
    // Leave no remainder under a segment's 4 bytes for the next one.
    if (missing - (4 + body) > 0 && missing - (4 + body) < 4) body -= 4;
    if (body < 0) throw new Error('a gap under 4 bytes cannot be filled with a segment');
    const segment = Buffer.alloc(4 + body, 0x20);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(body + 2, 2);
    segments.push(segment);
    missing -= segment.length;
  }
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/** A create-mix POST over a real socket (the request guards watch sockets, which inject has none of), its body written by `send`. */
function postOverSocket(contentType: string, send: (request: ClientRequest) => void): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/api/mix/create-mix',
        agent: false,
        headers: { 'content-type': contentType, 'x-auth-token': member.token },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    send(request);
  });
}

describe('POST /api/mix/create-mix', () => {
  test('creates a draft owned by the caller, with the MP3 stored byte for byte and the cover as a 400x400 JPEG', async () => {
    const response = await createMix(form());
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.mp3).toMatch(/^\/media\/mix\/mix-audio\/[0-9a-f]{32}\.mp3$/);
    expect(body.cover).toMatch(/^\/media\/mix\/mix-images\/[0-9a-f]{32}\.jpg$/);
    const [row] = await t.services.orm.em
      .fork()
      .getConnection()
      .execute(
        'select owner_id, title, genre, status, audio_bytes, duration_seconds, bitrate, latitude, longitude, waveform_state from mix where id = ?',
        [body._id],
      );
    expect(row).toMatchObject({ owner_id: member.id, title: 'Warehouse Sunday', genre: 'deep_house', status: 'draft', bitrate: 128000 });
    expect(Number(row.audio_bytes)).toBe(mp3.length);
    // music-metadata counts every frame: 3 s of audio plus the encoder's padding, to a few frames.
    expect(row.duration_seconds).toBeGreaterThan(2.95);
    expect(row.duration_seconds).toBeLessThan(3.1);
    // Where it was made: the centre of the uploader's ~2 km cell (issue 26), not the point they gave (52.52, 13.405).
    expect([row.latitude, row.longitude]).toEqual([52.515, 13.399063]);
    const stored = await readFile(join(mediaDir(), body.mp3.slice('/media/'.length)));
    expect(stored.equals(mp3)).toBe(true);
    const image = await sharp(await readFile(join(mediaDir(), body.cover.slice('/media/'.length)))).metadata();
    expect([image.format, image.width, image.height]).toEqual(['jpeg', 400, 400]);
  });

  test.each(['jpeg', 'png', 'gif', 'webp'] as const)('accepts a %s cover, judged by its content whatever its name', async (format) => {
    const data = await solidImage(format, 300, 500);
    const response = await createMix(form({ coverFile: { fileName: 'cover.bin', type: 'application/octet-stream', data } }));
    expect(response.statusCode).toBe(201);
  });

  test('an MP3 named and typed as anything else is still an MP3', async () => {
    const response = await createMix(form({ mp3File: { fileName: 'set.dat', type: 'application/octet-stream', data: mp3 } }));
    expect(response.statusCode).toBe(201);
  });

  test('only signed-in members may upload', async () => {
    const before = await snapshot();
    const response = await createMix(form(), null);
    expect(response.statusCode).toBe(401);
    await expectNothingLeft(before);
  });

  test.each([
    ['nothing at all', {}, 'Cover Image + Title + MP3 audio file + Genre'],
    ['only a title', { coverFile: null, mp3File: null, genre: null }, 'Cover Image + MP3 audio file + Genre'],
    ['no cover', { coverFile: null }, 'Cover Image'],
    ['a blank title', { title: '   ' }, 'Title'],
    ['no MP3', { mp3File: null }, 'MP3 audio file'],
    ['no genre', { genre: null }, 'Genre'],
    ['no title and no genre', { title: null, genre: null }, 'Title + Genre'],
    [
      'an empty file input for the cover',
      { coverFile: { fileName: '', type: 'application/octet-stream', data: Buffer.alloc(0) } },
      'Cover Image',
    ],
  ])('missing items are one 400 in the documented order: %s', async (_name, options, message) => {
    const before = await snapshot();
    const body = Object.keys(options).length === 0 ? orderedMultipart([]) : form(options);
    const response = await createMix(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(message);
    await expectNothingLeft(before);
  });

  test.each([
    ['zero bytes', () => Buffer.alloc(0)],
    ['truncated to its first 300 bytes', () => mp3.subarray(0, 300)],
    ['a text file renamed .mp3', () => Buffer.from('Tracklist:\n1. Someone - Something\n'.repeat(200))],
    ['random bytes named .mp3', () => randomBytes(200_000)],
    ['random bytes behind a valid MP3 frame header', () => Buffer.concat([mp3.subarray(0, 4), randomBytes(200_000)])],
    ['random bytes behind a valid MP3 frame header, again', () => Buffer.concat([mp3.subarray(0, 4), randomBytes(200_000)])],
    ['random bytes behind a valid MP3 frame header, once more', () => Buffer.concat([mp3.subarray(0, 4), randomBytes(200_000)])],
    ['a quarter of a second of real MP3', () => sineMp3({ seconds: 0.2 })],
    ['a WAV file (audio, but not MP3)', () => silentWav(2)],
    [
      'an ID3 tag with no audio behind it',
      () => Buffer.concat([Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x0a', 'latin1'), Buffer.alloc(4000)]),
    ],
  ])('an MP3 that is %s is refused with the documented message and leaves nothing', async (_name, data) => {
    const before = await snapshot();
    const response = await createMix(form({ mp3File: { fileName: 'mix.mp3', type: 'audio/mpeg', data: data() } }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Wrong format! Try MP3');
    await expectNothingLeft(before);
  });

  test('an MP3 cut off mid-frame still plays, so it is accepted for what it holds', async () => {
    const half = mp3.subarray(0, Math.floor(mp3.length / 2) + 7);
    const response = await createMix(form({ mp3File: { fileName: 'half.mp3', type: 'audio/mpeg', data: half } }));
    expect(response.statusCode).toBe(201);
    const [row] = await t.services.orm.em
      .fork()
      .getConnection()
      .execute('select duration_seconds from mix where id = ?', [response.json()._id]);
    expect(row.duration_seconds).toBeGreaterThan(1.4);
    expect(row.duration_seconds).toBeLessThan(1.6);
  });

  test.each([
    ['a text file', async () => Buffer.from('not an image at all'), 'Wrong format! Use .jpg, .png, .gif, or .webp'],
    [
      'a TIFF (an image, but not an allowed format)',
      () => solidImage('tiff' as 'png', 50, 50),
      'Wrong format! Use .jpg, .png, .gif, or .webp',
    ],
    [
      'an SVG',
      async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'),
      'Wrong format! Use .jpg, .png, .gif, or .webp',
    ],
    ['a truncated JPEG', async () => (await solidImage('jpeg', 800, 600)).subarray(0, 900), 'Invalid file'],
    ['an image bomb (30000 x 30000 declared)', () => imageBomb(), 'Invalid file'],
    ['zero bytes with a name', async () => Buffer.alloc(0), 'Invalid file'],
  ])('a cover that is %s is refused with the documented message and leaves nothing', async (_name, data, message) => {
    const before = await snapshot();
    const response = await createMix(form({ coverFile: { fileName: 'cover.jpg', type: 'image/jpeg', data: await data() } }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(message);
    await expectNothingLeft(before);
  });

  test('a cover over 5,242,880 bytes is a 413 before it is decoded', async () => {
    const before = await snapshot();
    const data = Buffer.concat([await solidImage('png', 10, 10), randomBytes(COVER_RULE.maxBytes)]);
    const response = await createMix(form({ coverFile: { fileName: 'big.png', type: 'image/png', data } }));
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBe('File too large (max. 5MB)');
    await expectNothingLeft(before);
  });

  test('a cover of exactly 5,242,880 bytes is taken, as the web decides too', async () => {
    const data = jpegOfSize(await solidImage('jpeg', 300, 300), COVER_RULE.maxBytes);
    expect(data.length).toBe(5_242_880);
    expect(imageProblem(COVER_RULE, { name: 'big.jpg', size: data.length })).toBeNull();
    const response = await createMix(form({ coverFile: { fileName: 'big.jpg', type: 'image/jpeg', data } }));
    expect(response.statusCode).toBe(201);
  });

  test('an unknown genre is a 400 and the files already stored are removed', async () => {
    const before = await snapshot();
    const response = await createMix(form({ genre: 'polka' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^Unknown genre/);
    await expectNothingLeft(before);
  });

  test("storage that fails while the MP3 streams in is a 503 that says so, not the client's malformed form, and leaves nothing", async () => {
    const storage = t.services.storage;
    const put = storage.put.bind(storage);
    // A disk that fails once some of the MP3 has arrived.
    const spy = vi.spyOn(storage, 'put').mockImplementation((key, body) => {
      if (!key.startsWith('mix/mix-audio/')) return put(key, body);
      let taken = 0;
      const failing = new Writable({
        write(chunk: Buffer, _encoding, done) {
          taken += chunk.length;
          done(taken > 4096 ? Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }) : null);
        },
      });
      return pipeIntoStorage(body, failing);
    });
    try {
      const before = await snapshot();
      const response = await createMix(form());
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toBe('Storage is unavailable right now; please try again');
      await expectNothingLeft(before);
    } finally {
      spy.mockRestore();
    }
  });

  test('an MP3 over 314,572,800 bytes is a 413 as soon as the limit passes, over a real socket', async () => {
    const before = await snapshot();
    const head = orderedMultipart([
      { name: 'cover', fileName: 'c.png', type: 'image/png', data: cover },
      { name: 'title', value: 'Too long' },
    ]);
    const opening = Buffer.concat([head.payload.subarray(0, head.payload.length - `--${head.boundary}--\r\n`.length)]);
    const fileHead = filePartHead(head.boundary, 'mp3', 'long.mp3', 'audio/mpeg');
    // Whole MP3 frames repeated: valid audio all the way, so only the size can be what is refused.
    const frames = sineMp3({ seconds: 20, kbps: 320, envelope: () => 0.3 });
    let sent = 0;
    const answer = postOverSocket(head.headers['content-type'], (request) => {
      request.write(opening);
      request.write(fileHead);
      const pump = () => {
        while (sent <= MP3_RULE.maxBytes + frames.length) {
          sent += frames.length;
          if (!request.write(frames)) return void request.once('drain', pump);
        }
        request.end(Buffer.from(`\r\n--${head.boundary}--\r\n`));
      };
      pump();
    });
    // The server closes the connection once it has answered: a write failing after the limit is expected.
    const status = await waitForEvent(
      'the answer to a 300 MB upload',
      answer.catch((error: unknown) => {
        if (sent <= MP3_RULE.maxBytes) throw error;
        return { status: 0, body: `the connection failed before an answer: ${error}` };
      }),
      170_000,
    );
    expect(status.status, status.body).toBe(413);
    expect(JSON.parse(status.body).error).toBe('File too large (max. 300MB)');
    await expectNothingLeft(before);
  }, 180_000);

  test('a client still sending is not cut as idle while the server is behind (storage slower than the idle timeout)', async () => {
    const storage = t.services.storage;
    const put = storage.put.bind(storage);
    // A disk that takes the MP3's first bytes only after three idle timeouts: meanwhile the server reads nothing more
    // from the socket, however fast the client sends.
    const spy = vi.spyOn(storage, 'put').mockImplementation(async (key, body) => {
      if (key.startsWith('mix/mix-audio/')) await new Promise((resolve) => setTimeout(resolve, 3 * IDLE_MS));
      return put(key, body);
    });
    try {
      const body = form({ mp3File: { fileName: 'slow.mp3', type: 'audio/mpeg', data: longMp3() } });
      const answer = await waitForEvent(
        'the answer to an upload the server is slow to store',
        postOverSocket(body.headers['content-type'], (request) => request.end(body.payload)),
      );
      expect(answer.status, answer.body).toBe(201);
    } finally {
      spy.mockRestore();
    }
  });

  test('a client that aborts in the middle of the MP3 leaves no draft and no file', async () => {
    const before = await snapshot();
    const handling = vi.spyOn(t.services.media, 'createMixFromUpload');
    try {
      const body = form({ mp3File: { fileName: 'big.mp3', type: 'audio/mpeg', data: longMp3() } });
      const raw = await startRawRequest(
        port,
        {
          method: 'POST',
          path: '/api/mix/create-mix',
          headers: { 'content-type': body.headers['content-type'], 'content-length': body.payload.length, 'x-auth-token': member.token },
        },
        body.payload.subarray(0, Math.floor(body.payload.length * 0.6)),
      );
      await waitFor('the MP3 to be arriving in storage', async () => (await mixFiles()).some((file) => file.endsWith('.mp3.partial')));
      raw.socket.destroy();
      // The upload's own end: whatever it stored is removed before the server is done with it.
      const [call] = handling.mock.results;
      if (call?.type !== 'return') throw new Error('the upload reached storage without going through createMixFromUpload');
      const outcome = await waitForEvent(
        'the server to finish with the aborted upload',
        call.value.then(
          () => 'a draft',
          () => 'refused',
        ),
      );
      expect(outcome).toBe('refused');
      await expectNothingLeft(before);
      expect(await filesUnder(mediaDir())).not.toContainEqual(expect.stringMatching(/partial/));
    } finally {
      handling.mockRestore();
    }
  });

  test('a multipart body that stalls is a 408, answered only once what it stored is gone', async () => {
    const before = await snapshot();
    const storage = t.services.storage;
    const remove = storage.delete.bind(storage);
    // A disk slow to delete: the answer must still wait for the upload's files to go.
    const spy = vi.spyOn(storage, 'delete').mockImplementation(async (key) => {
      await new Promise((resolve) => setTimeout(resolve, 2 * IDLE_MS));
      return remove(key);
    });
    try {
      const body = form({ mp3File: { fileName: 'stall.mp3', type: 'audio/mpeg', data: longMp3() } });
      const raw = await startRawRequest(
        port,
        {
          method: 'POST',
          path: '/api/mix/create-mix',
          headers: { 'content-type': body.headers['content-type'], 'content-length': body.payload.length, 'x-auth-token': member.token },
        },
        body.payload.subarray(0, Math.floor(body.payload.length * 0.7)),
      );
      // The client keeps the connection open and sends nothing more; the server must answer and end it.
      const answer = await waitForEvent('the server to end the stalled upload', raw.response);
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('the request body stopped arriving');
      await expectNothingLeft(before);
      expect(await filesUnder(mediaDir())).not.toContainEqual(expect.stringMatching(/partial/));
    } finally {
      spy.mockRestore();
    }
  });
});
