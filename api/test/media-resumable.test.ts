import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { RESUMABLE_UPLOAD_TTL_MS } from '../src/modules/media/resumable-uploads.js';
import { StorageUnavailableError } from '../src/shared/errors.js';
import { MP3_RULE, mp3Problem } from '../src/shared/rules.js';
import { createTestApp, type Member, signUpMember, type TestApp } from './support/app.js';
import { filesUnder, sineMp3 } from './support/audio.js';
import { solidImage } from './support/images.js';
import { orderedMultipart, startRawRequest } from './support/upload.js';
import { waitFor, waitForEvent } from './support/wait.js';

let t: TestApp;
let base: string;
let port: number;
let member: Member;
let other: Member;
let mp3: Buffer;
let cover: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  member = await signUpMember(t.app);
  other = await signUpMember(t.app);
  mp3 = sineMp3({ seconds: 40, kbps: 160, envelope: () => 0.5 });
  cover = await solidImage('webp', 300, 300);
}, 60_000);
afterAll(() => t.close());

const TUS = { 'tus-resumable': '1.0.0' };
/** Where the uploads' parts wait, in the media storage (their state is in PostgreSQL: see SharedUploadStore). */
const uploadsDir = () => join(t.config.DATA_DIR, 'media', 'resumable-uploads');

async function createUpload(size: number, token = member.token): Promise<Response> {
  return fetch(`${base}/api/uploads`, { method: 'POST', headers: { ...TUS, 'upload-length': String(size), 'x-auth-token': token } });
}

async function offsetOf(location: string, token = member.token): Promise<Response> {
  return fetch(`${base}${location}`, { method: 'HEAD', headers: { ...TUS, 'x-auth-token': token } });
}

async function patch(location: string, offset: number, data: Buffer, token = member.token): Promise<Response> {
  return fetch(`${base}${location}`, {
    method: 'PATCH',
    headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', 'x-auth-token': token },
    body: data,
  });
}

async function createMixWith(uploadId: string, token = member.token) {
  const body = orderedMultipart([
    { name: 'cover', fileName: 'c.webp', type: 'image/webp', data: cover },
    { name: 'title', value: 'Resumed set' },
    { name: 'mp3', value: uploadId },
    { name: 'genre', value: 'garage' },
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/mix/create-mix',
    headers: { ...body.headers, 'x-auth-token': token },
    payload: body.payload,
  });
}

async function finishedUpload(data: Buffer): Promise<string> {
  const created = await createUpload(data.length);
  const location = String(created.headers.get('location'));
  expect((await patch(location, 0, data)).status).toBe(204);
  return location;
}

describe('tus resumable uploads for the MP3', () => {
  test('an upload in two parts survives a dropped connection in between, then becomes the mix', async () => {
    const created = await createUpload(mp3.length);
    expect(created.status).toBe(201);
    const location = String(created.headers.get('location'));
    expect(location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);

    // First part: the connection drops while the body is still arriving.
    const half = Math.floor(mp3.length / 2);
    const raw = await startRawRequest(
      port,
      {
        method: 'PATCH',
        path: location,
        headers: {
          'tus-resumable': '1.0.0',
          'upload-offset': 0,
          'content-type': 'application/offset+octet-stream',
          'content-length': mp3.length,
          'x-auth-token': member.token,
        },
      },
      mp3.subarray(0, half),
    );
    // The client stops there and closes its side: the half it sent is all that can arrive, whenever the server reads it.
    raw.socket.end();
    await waitForEvent('the server to close the cut-off PATCH', raw.closed);

    // The server keeps what arrived; the client asks where to go on, and sends the rest from there.
    const head = await waitFor('the server to keep what arrived of the cut-off PATCH', () => offsetOf(location), {
      until: (response) => Number(response.headers.get('upload-offset')) > 0,
    });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(half);
    expect(head.headers.get('upload-length')).toBe(String(mp3.length));
    const rest = await patch(location, offset, mp3.subarray(offset));
    expect(rest.status).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(mp3.length));

    const response = await createMixWith(location.split('/').pop() ?? '');
    expect(response.statusCode).toBe(201);
    const stored = await readFile(join(t.config.DATA_DIR, 'media', response.json().mp3.slice('/media/'.length)));
    expect(stored.equals(mp3)).toBe(true);
    const [row] = await t.services.orm.em
      .fork()
      .getConnection()
      .execute('select audio_bytes, duration_seconds from mix where id = ?', [response.json()._id]);
    expect(Number(row.audio_bytes)).toBe(mp3.length);
    expect(row.duration_seconds).toBeGreaterThan(39.9);
    // The tus leftovers (bytes and info file) are gone.
    expect(await filesUnder(uploadsDir())).toEqual([]);
  });

  test('the full upload URL works as the id too', async () => {
    const location = await finishedUpload(mp3);
    expect((await createMixWith(`${base}${location}`)).statusCode).toBe(201);
  });

  test('only signed-in members may upload', async () => {
    const response = await fetch(`${base}/api/uploads`, { method: 'POST', headers: { ...TUS, 'upload-length': '100' } });
    expect(response.status).toBe(401);
    const forged = await createUpload(100, 'not-a-token');
    expect(forged.status).toBe(401);
  });

  test('metadata that PostgreSQL cannot store (a NUL) is a 400, and no upload is made', async () => {
    for (const value of ['a\u0000b', '\u0000']) {
      const response = await fetch(`${base}/api/uploads`, {
        method: 'POST',
        headers: {
          ...TUS,
          'upload-length': '100',
          'x-auth-token': member.token,
          'upload-metadata': `filename ${Buffer.from(value).toString('base64')}`,
        },
      });
      expect(response.status).toBe(400);
    }
    const named = await fetch(`${base}/api/uploads`, {
      method: 'POST',
      headers: {
        ...TUS,
        'upload-length': '100',
        'x-auth-token': member.token,
        'upload-metadata': `filename ${Buffer.from('set.mp3').toString('base64')}`,
      },
    });
    expect(named.status).toBe(201);
  });

  test("nobody else may see, continue or use a member's upload", async () => {
    const created = await createUpload(mp3.length);
    const location = String(created.headers.get('location'));
    expect((await offsetOf(location, other.token)).status).toBe(404);
    expect((await patch(location, 0, mp3, other.token)).status).toBe(404);
    expect((await patch(location, 0, mp3)).status).toBe(204);
    const stolen = await createMixWith(location.split('/').pop() ?? '', other.token);
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error).toBe('MP3 upload not found or not finished');
    expect((await createMixWith(location.split('/').pop() ?? '')).statusCode).toBe(201);
  });

  test('an upload of exactly 314,572,800 bytes is taken and one byte more refused when announced, as the web decides too', async () => {
    expect(MP3_RULE.maxBytes).toBe(314_572_800);
    const response = await createUpload(MP3_RULE.maxBytes + 1);
    expect(response.status).toBe(413);
    expect(await response.text()).toBe('File too large (max. 300MB)');
    expect(mp3Problem({ type: MP3_RULE.type, size: MP3_RULE.maxBytes + 1 })).toBe('File too large (max. 300MB)');
    expect((await createUpload(MP3_RULE.maxBytes)).status).toBe(201);
    expect(mp3Problem({ type: MP3_RULE.type, size: MP3_RULE.maxBytes })).toBeNull();
  });

  test('an unfinished upload cannot become a mix yet, and stays for the client to finish', async () => {
    const created = await createUpload(mp3.length);
    const location = String(created.headers.get('location'));
    await patch(location, 0, mp3.subarray(0, 1000));
    const response = await createMixWith(location.split('/').pop() ?? '');
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('MP3 upload not found or not finished');
    expect(Number((await offsetOf(location)).headers.get('upload-offset'))).toBe(1000);
  });

  test('the same checks apply: a finished upload that is no MP3 is refused and removed', async () => {
    const text = Buffer.from('this is a tracklist, not audio\n'.repeat(100));
    const location = await finishedUpload(text);
    const id = location.split('/').pop() ?? '';
    const response = await createMixWith(id);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Wrong format! Try MP3');
    expect((await offsetOf(location)).status).toBe(404);
    expect((await filesUnder(uploadsDir())).filter((file) => file.startsWith(id))).toEqual([]);
  });

  test('a mix that fails for another reason keeps the upload, so the client can fix the form and retry', async () => {
    const location = await finishedUpload(mp3);
    const id = location.split('/').pop() ?? '';
    const body = orderedMultipart([
      { name: 'title', value: 'No cover' },
      { name: 'mp3', value: id },
      { name: 'genre', value: 'garage' },
    ]);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/mix/create-mix',
      headers: { ...body.headers, 'x-auth-token': member.token },
      payload: body.payload,
    });
    expect(response.json().error).toBe('Cover Image');
    expect((await createMixWith(id)).statusCode).toBe(201);
  });

  test('storage that fails during a PATCH is a 503 that says so, and the upload resumes from what was kept', async () => {
    const created = await createUpload(mp3.length);
    const location = String(created.headers.get('location'));
    const spy = vi.spyOn(t.services.storage, 'put').mockRejectedValue(new StorageUnavailableError());
    try {
      const failed = await patch(location, 0, mp3);
      expect(failed.status).toBe(503);
      expect(await failed.text()).toBe('Storage is unavailable right now; please try again');
    } finally {
      spy.mockRestore();
    }
    const offset = Number((await offsetOf(location)).headers.get('upload-offset'));
    expect((await patch(location, offset, mp3.subarray(offset))).status).toBe(204);
    expect((await offsetOf(location)).headers.get('upload-offset')).toBe(String(mp3.length));
  });

  test('uploads nobody used are swept after a day, finished or not', async () => {
    await finishedUpload(mp3.subarray(0, 5000));
    await createUpload(10_000);
    expect((await filesUnder(uploadsDir())).length).toBeGreaterThanOrEqual(1);
    expect(await t.services.media.uploads.sweep(Date.now())).toBe(0);
    expect(await t.services.media.uploads.sweep(Date.now() + RESUMABLE_UPLOAD_TTL_MS + 1000)).toBeGreaterThanOrEqual(2);
    expect(await filesUnder(uploadsDir())).toEqual([]);
  });
});
