import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import koffi from 'koffi';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { buildApp } from '../src/http/app.js';
import { zeroCopy } from '../src/storage/zero-copy.js';
import { createTestApp, type Member, signUpMember, type TestApp } from './support/app.js';
import { sineMp3 } from './support/audio.js';
import { multipart, solidImage } from './support/images.js';
import { createMixOver } from './support/upload.js';
import { waitFor } from './support/wait.js';

let t: TestApp;
let owner: Member;
let listener: Member;
let mp3: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpMember(t.app);
  listener = await signUpMember(t.app);
  mp3 = sineMp3({ seconds: 20, kbps: 192, envelope: () => 0.4 });
}, 60_000);
afterAll(() => t.close());

interface UploadedMix {
  id: string;
  mp3: string;
  cover: string;
}

async function uploadMix(): Promise<UploadedMix> {
  const {
    _id,
    mp3: audioUrl,
    cover,
  } = await createMixOver(t.app, owner.token, {
    cover: await solidImage('jpeg', 500, 500),
    mp3,
    title: 'Delivery test',
    genre: 'techno',
  });
  return { id: _id, mp3: audioUrl, cover };
}

const sql = (text: string, params: unknown[] = []) => t.services.orm.em.fork().getConnection().execute(text, params);
const publish = (id: string) =>
  sql(`update mix set status = 'published', published_at = now(), expires_at = now() + interval '1 year' where id = ?`, [id]);
/** Asks the kernel to drop a file's pages from memory (posix_fadvise DONTNEED drops clean pages: written out first). */
function evictFromMemory(path: string): void {
  const libc = koffi.load('libc.so.6');
  const fadvise = libc.func('int posix_fadvise(int fd, int64_t offset, int64_t len, int advice)');
  const POSIX_FADV_DONTNEED = 4;
  const fd = openSync(path, 'r');
  try {
    fdatasyncSync(fd);
    expect(fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)).toBe(0);
  } finally {
    closeSync(fd);
  }
}
const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url, headers });

describe('audio delivery with HTTP ranges and validators', () => {
  let mix: UploadedMix;
  beforeAll(async () => {
    mix = await uploadMix();
    await publish(mix.id);
  });

  test('GET answers the whole file with the headers a player and a cache need', async () => {
    const response = await get(mix.mp3);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(mp3)).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'audio/mpeg',
      'content-length': String(mp3.length),
      'accept-ranges': 'bytes',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(response.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Date.parse(String(response.headers['last-modified']))).not.toBeNaN();
  });

  test('HEAD answers the same headers and no body', async () => {
    const [full, head] = [await get(mix.mp3), await get(mix.mp3, {}, 'HEAD')];
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload.length).toBe(0);
    for (const name of ['content-type', 'content-length', 'accept-ranges', 'etag', 'last-modified', 'cache-control']) {
      expect(head.headers[name]).toBe(full.headers[name]);
    }
    const ranged = await get(mix.mp3, { range: 'bytes=100-199' }, 'HEAD');
    expect([ranged.statusCode, ranged.headers['content-length'], ranged.headers['content-range']]).toEqual([
      206,
      '100',
      `bytes 100-199/${mp3.length}`,
    ]);
  });

  test.each([
    ['the first byte', 'bytes=0-0', 0, 0],
    ['a 256 KB slice in the middle', 'bytes=100000-362143', 100_000, 362_143],
    ['from an offset to the end', 'bytes=400000-', 400_000, null],
    ['the last 500 bytes', 'bytes=-500', null, null],
    ['a range running past the end (clamped)', 'bytes=470000-999999999', 470_000, null],
  ])('a Range for %s is a 206 with exactly those bytes', async (_name, range, start, end) => {
    const size = mp3.length;
    const from = start ?? size - 500;
    const to = end ?? size - 1;
    const response = await get(mix.mp3, { range });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes ${from}-${to}/${size}`);
    expect(response.headers['content-length']).toBe(String(to - from + 1));
    expect(response.rawPayload.equals(mp3.subarray(from, to + 1))).toBe(true);
  });

  test('an unsatisfiable range is a 416 that tells the size', async () => {
    const response = await get(mix.mp3, { range: `bytes=${mp3.length}-` });
    expect(response.statusCode).toBe(416);
    expect(response.headers['content-range']).toBe(`bytes */${mp3.length}`);
  });

  test('a malformed range, another unit, or several ranges get the whole file', async () => {
    for (const range of ['bytes=abc', 'items=0-5', 'bytes=0-9,100-109']) {
      const response = await get(mix.mp3, { range });
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.length).toBe(mp3.length);
    }
  });

  test('If-None-Match and If-Modified-Since answer 304 with no body', async () => {
    const { etag, 'last-modified': lastModified } = (await get(mix.mp3)).headers;
    const byTag = await get(mix.mp3, { 'if-none-match': String(etag) });
    expect([byTag.statusCode, byTag.rawPayload.length, byTag.headers.etag]).toEqual([304, 0, etag]);
    const byDate = await get(mix.mp3, { 'if-modified-since': String(lastModified) });
    expect(byDate.statusCode).toBe(304);
    expect((await get(mix.mp3, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    expect((await get(mix.mp3, { 'if-modified-since': new Date(Date.now() - 86_400_000).toUTCString() })).statusCode).toBe(200);
  });

  test('If-Range keeps the range only while the file is the one the client has', async () => {
    const { etag, 'last-modified': lastModified } = (await get(mix.mp3)).headers;
    expect((await get(mix.mp3, { range: 'bytes=10-19', 'if-range': String(etag) })).statusCode).toBe(206);
    expect((await get(mix.mp3, { range: 'bytes=10-19', 'if-range': String(lastModified) })).statusCode).toBe(206);
    const stale = await get(mix.mp3, { range: 'bytes=10-19', 'if-range': '"stale-tag"' });
    expect([stale.statusCode, stale.rawPayload.length]).toEqual([200, mp3.length]);
    expect((await get(mix.mp3, { range: 'bytes=10-19', 'if-range': 'Thu, 01 Jan 1970 00:00:00 GMT' })).statusCode).toBe(200);
  });

  test('If-Match with another tag is a 412', async () => {
    expect((await get(mix.mp3, { 'if-match': '"other"' })).statusCode).toBe(412);
    expect((await get(mix.mp3, { 'if-match': String((await get(mix.mp3)).headers.etag) })).statusCode).toBe(200);
  });

  test('over real connections, media is answered before Fastify, and concurrent ranges each get exactly their bytes', async () => {
    // The app as it serves the network, with a Fastify hook that sees every request Fastify handles.
    const served = await buildApp(t.services);
    const seenByFastify: string[] = [];
    served.addHook('onRequest', async (request) => {
      seenByFastify.push(request.url);
    });
    const base = await served.listen({ port: 0, host: '127.0.0.1' });
    try {
      const ranges = Array.from({ length: 48 }, (_, index) => {
        const start = (index * 9_973) % (mp3.length - 300_000);
        return { start, end: start + 1_000 + ((index * 7_919) % 280_000) };
      });
      const answers = await Promise.all(
        ranges.map(async ({ start, end }) => {
          const response = await fetch(`${base}${mix.mp3}`, { headers: { range: `bytes=${start}-${end}` } });
          return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
        }),
      );
      answers.forEach(({ status, body }, index) => {
        const { start, end } = ranges[index];
        expect(status).toBe(206);
        expect(body.equals(mp3.subarray(start, end + 1))).toBe(true);
      });
      const missing = await fetch(`${base}/media/mix/mix-audio/no-such-file.mp3`);
      expect([missing.status, await missing.json()]).toEqual([404, { error: 'Not found', message: 'Not found', status: 404 }]);
      const garbled = await fetch(`${base}/media/mix/mix-audio/%E0%A4%A.mp3`);
      expect(garbled.status).toBe(404);
      // Over the network every header goes out in one writeHead, through Fastify one by one: the same headers either way
      // (through Fastify its own hooks add more), the security and CORS headers included, for a range, a 416 and a 404.
      const comparable = (headers: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(headers)
            .filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name))
            .map(([name, value]) => [name, String(value)]),
        );
      for (const [path, headers] of [
        [mix.mp3, { range: 'bytes=100-199', origin: 'https://elsewhere.example' }],
        [mix.mp3, { range: 'bytes=999999999-' }],
        ['/media/mix/mix-audio/no-such-file.mp3', { origin: 'https://elsewhere.example' }],
      ] as const) {
        const overNetwork = await fetch(`${base}${path}`, { headers });
        await overNetwork.arrayBuffer();
        const injected = await get(path, headers);
        expect(overNetwork.status).toBe(injected.statusCode);
        expect(comparable(injected.headers)).toMatchObject(comparable(Object.fromEntries(overNetwork.headers)));
        expect(overNetwork.headers.get('x-content-type-options')).toBe('nosniff');
        expect(overNetwork.headers.get('content-security-policy')).toContain("default-src 'none'");
        if ('origin' in headers) expect(overNetwork.headers.get('access-control-allow-origin')).toBe('*');
      }
      const head = await fetch(`${base}${mix.mp3}`, { method: 'HEAD', headers: { range: 'bytes=0-9' } });
      expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([206, '10', 0]);
      expect(seenByFastify).toEqual([]);
      // Everything else still goes through Fastify.
      expect((await fetch(`${base}/api/no-such-route`)).status).toBe(404);
      expect(seenByFastify).toEqual(['/api/no-such-route']);
    } finally {
      await served.close();
    }
  });
  test('over real connections, ranges in memory go from the file to the socket with no copy; ranges on disk, long ranges and many requests on one connection get exactly their bytes', async () => {
    const zero = zeroCopy();
    expect(zero, 'sendfile and mincore through libc (Linux)').not.toBeNull();
    if (!zero) return;
    // 100 s (2.4 MB) as five copies of the 20 s file, whole frames after whole frames: a valid MP3, and encoding it
    // afresh took most of this test's time on a busy machine (26 s of its 60 s bound at a load average of 30).
    const long = Buffer.concat(Array.from({ length: 5 }, () => mp3));
    const { _id: id, mp3: audioUrl } = await createMixOver(t.app, owner.token, {
      cover: await solidImage('jpeg', 500, 500),
      mp3: long,
      title: 'Long',
      genre: 'house',
    });
    await publish(id);
    const stored = join(t.config.DATA_DIR, 'media', decodeURIComponent(audioUrl.replace('/media/', '')));
    expect((await readFile(stored)).equals(long)).toBe(true);
    const sent = vi.spyOn(zero, 'send');
    const served = await buildApp(t.services);
    const base = await served.listen({ port: 0, host: '127.0.0.1' });
    const range = async (start: number, end: number) => {
      const response = await fetch(`${base}${audioUrl}`, { headers: { range: `bytes=${start}-${end}` } });
      const body = Buffer.from(await response.arrayBuffer());
      expect(response.status).toBe(206);
      expect(response.headers.get('content-length')).toBe(String(end - start + 1));
      expect(body.equals(long.subarray(start, end + 1)), `bytes ${start}-${end}`).toBe(true);
    };
    try {
      // Just written, so in memory: sent with no copy, one request after another on one kept-alive connection.
      for (let index = 0; index < 20; index += 1) await range((index * 104_729) % 2_000_000, ((index * 104_729) % 2_000_000) + 262_143);
      expect(sent).toHaveBeenCalledTimes(20);

      // Longer than the part offered with no copy: its head goes straight, the rest follows read and written.
      sent.mockClear();
      await range(1_000, long.length - 1);
      expect(sent).toHaveBeenCalledTimes(1);

      // Pages the kernel dropped are read the usual way (no waiting for the disk on the event loop), which brings
      // them back for the next request.
      // The upload's waveform job reads the whole file: once it is done, nothing else brings the pages back.
      await waitFor(
        "the upload's waveform job to finish",
        async () => (await sql('select waveform_state from mix where id = ?', [id]))[0]?.waveform_state,
        { until: (state) => state !== 'pending' },
      );
      const storedFd = openSync(stored, 'r');
      const mapping = zero.map(storedFd, long.length);
      await waitFor(
        'the kernel to drop the pages of 500,000-700,000',
        () => {
          evictFromMemory(stored);
          return mapping?.resident(500_000, 200_001);
        },
        { until: (resident) => resident === false },
      );
      mapping?.unmap();
      closeSync(storedFd);
      sent.mockClear();
      await range(500_000, 700_000);
      expect(sent).not.toHaveBeenCalled();
      await range(500_000, 700_000);
      expect(sent).toHaveBeenCalledTimes(1);
    } finally {
      sent.mockRestore();
      await served.close();
    }
  });

  test('the cover is served as a cacheable JPEG', async () => {
    const response = await get(mix.cover);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(mix.cover, { 'if-none-match': String(response.headers.etag) })).statusCode).toBe(304);
  });
});

describe('who may fetch a file', () => {
  test('a draft is served to the holder of its link, never to shared caches', async () => {
    const draft = await uploadMix();
    for (const url of [draft.mp3, draft.cover]) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    }
  });

  test('a deactivated mix stops being served at once, to everyone, its owner included', async () => {
    const mix = await uploadMix();
    await publish(mix.id);
    // Served, and so remembered by this instance's cache...
    expect((await get(mix.mp3)).statusCode).toBe(200);
    expect((await get(mix.mp3)).statusCode).toBe(200);
    await sql('update mix set deactivated_at = now() where id = ?', [mix.id]);
    // ...until the database's notification reaches it, a moment after the change commits (its entries have no other
    // end: without the notification the file would be served for as long as the mix lasts).
    await waitFor('the deactivation to reach the delivery cache', () => get(mix.mp3), {
      until: (response) => response.statusCode === 404,
    });
    for (const url of [mix.mp3, mix.cover]) {
      expect((await get(url)).statusCode).toBe(404);
      expect((await get(url, { 'x-auth-token': owner.token })).statusCode).toBe(404);
      expect((await get(url, { range: 'bytes=0-9' }, 'HEAD')).statusCode).toBe(404);
    }
  });

  test('an expired mix is served to its owner only', async () => {
    const mix = await uploadMix();
    await sql(
      `update mix set status = 'published', published_at = now() - interval '13 months', expires_at = now() - interval '1 month' where id = ?`,
      [mix.id],
    );
    expect((await get(mix.mp3)).statusCode).toBe(404);
    expect((await get(mix.mp3, { 'x-auth-token': listener.token })).statusCode).toBe(404);
    const mine = await get(mix.mp3, { 'x-auth-token': owner.token });
    expect([mine.statusCode, mine.headers['cache-control']]).toEqual([200, 'private, max-age=31536000, immutable']);
    expect((await get(mix.mp3, { authorization: `Bearer ${owner.token}` })).statusCode).toBe(200);
  });

  test('a profile image is public', async () => {
    const form = multipart({}, [{ field: 'profile_image', name: 'me.png', type: 'image/png', data: await solidImage('png', 60, 60) }]);
    const updated = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/update-user',
      headers: { ...form.headers, 'x-auth-token': listener.token },
      payload: form.payload,
    });
    const response = await get(updated.json().data.user_image);
    expect([response.statusCode, response.headers['content-type'], response.headers['cache-control']]).toEqual([
      200,
      'image/jpeg',
      'public, max-age=31536000, immutable',
    ]);
  });

  test.each([
    '/media/mix/mix-audio/0123456789abcdef0123456789abcdef.mp3',
    '/media/mix/mix-audio/../../../../etc/passwd',
    '/media/mix/mix-audio/..%2F..%2F..%2Fetc%2Fpasswd',
    '/media/%2e%2e/%2e%2e/etc/passwd',
    '/media/postgres/PG_VERSION',
    '/media/secrets/jwt.key',
    '/media/mix/mix-audio/',
    '/media/',
  ])('%s is a 404', async (url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(404);
  });

  test("finding a file's mix is an index probe, however many mixes there are", async () => {
    const connection = t.services.orm.em.fork().getConnection();
    await connection.execute('set enable_seqscan = off');
    for (const [column, index] of [
      ['mp3', 'mix_mp3_idx'],
      ['cover', 'mix_cover_idx'],
    ]) {
      const plan = await connection.execute<{ 'QUERY PLAN': string }[]>(`explain select id from mix where ${column} = 'x.mp3'`);
      expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain(index);
    }
  });

  test('a file left without a mix (an orphan) is not served', async () => {
    const orphan = 'mix/mix-audio/00000000000000000000000000000000.mp3';
    await t.services.storage.put(orphan, mp3.subarray(0, 1000));
    expect((await get(`/media/${orphan}`)).statusCode).toBe(404);
    expect((await readFile(join(t.config.DATA_DIR, 'media', orphan))).length).toBe(1000);
  });
});
