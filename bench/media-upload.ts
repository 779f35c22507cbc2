/**
 * Uploading a 300 MB MP3 (a two-hour set at 320 kbps) through create-mix and through tus, over loopback to the API in
 * its own process: throughput and the server's peak RSS growth while it streams, checks and stores the file.
 * Target: growth under 64 MB. Also: how long the waveform job takes for that file, and its memory.
 */
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { MP3_RULE } from '../api/src/shared/rules.js';
import { type ApiProcess, benchDatabase, MB, measureRss, mp3Frames, out, repeated, signUp, startApi } from './support.js';

const TARGET_GROWTH_MB = 64;

interface Sent {
  status: number;
  body: string;
}

/** Streams a body (produced piece by piece, never whole) and collects the answer. */
function send(url: string, method: string, headers: Record<string, string | number>, body: AsyncIterable<Buffer> | Buffer): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
    if (Buffer.isBuffer(body)) request.end(body);
    else pipeline(Readable.from(body, { objectMode: false }), request).catch(reject);
  });
}

function formParts(boundary: string, fields: [string, string][], cover: Buffer) {
  const field = ([name, value]: [string, string]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const coverPart = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cover"; filename="cover.png"\r\nContent-Type: image/png\r\n\r\n`),
    cover,
    Buffer.from('\r\n'),
  ]);
  return { coverPart, fields: Buffer.from(fields.map(field).join('')), end: Buffer.from(`--${boundary}--\r\n`) };
}

async function createMixWithFile(api: ApiProcess, token: string, cover: Buffer, frames: Buffer, repeats: number): Promise<Sent> {
  const boundary = 'benchboundary7d1f';
  const parts = formParts(
    boundary,
    [
      ['title', 'Two hours at 320'],
      ['genre', 'techno'],
    ],
    cover,
  );
  const fileHead = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="mp3"; filename="set.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`,
  );
  const head = Buffer.concat([parts.coverPart, parts.fields, fileHead]);
  const tail = Buffer.concat([Buffer.from('\r\n'), parts.end]);
  const length = head.length + frames.length * repeats + tail.length;
  return send(
    `${api.base}/api/mix/create-mix`,
    'POST',
    { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length, 'x-auth-token': token },
    repeated(head, frames, repeats, tail),
  );
}

async function createMixWithUpload(api: ApiProcess, token: string, cover: Buffer, uploadId: string): Promise<Sent> {
  const boundary = 'benchboundary9a3c';
  const parts = formParts(
    boundary,
    [
      ['title', 'Two hours at 320, resumable'],
      ['mp3', uploadId],
      ['genre', 'techno'],
    ],
    cover,
  );
  const body = Buffer.concat([parts.coverPart, parts.fields, parts.end]);
  return send(
    `${api.base}/api/mix/create-mix`,
    'POST',
    { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length, 'x-auth-token': token },
    body,
  );
}

async function tusUpload(api: ApiProcess, token: string, frames: Buffer, repeats: number): Promise<string> {
  const size = frames.length * repeats;
  const created = await fetch(`${api.base}/api/uploads`, {
    method: 'POST',
    headers: { 'tus-resumable': '1.0.0', 'upload-length': String(size), 'x-auth-token': token },
  });
  if (created.status !== 201) throw new Error(`tus create failed: ${created.status} ${await created.text()}`);
  const location = String(created.headers.get('location'));
  const patched = await send(
    `${api.base}${location}`,
    'PATCH',
    {
      'tus-resumable': '1.0.0',
      'upload-offset': 0,
      'content-type': 'application/offset+octet-stream',
      'content-length': size,
      'x-auth-token': token,
    },
    repeated(Buffer.alloc(0), frames, repeats, Buffer.alloc(0)),
  );
  if (patched.status !== 204) throw new Error(`tus PATCH failed: ${patched.status} ${patched.body}`);
  return location.split('/').pop() ?? '';
}

async function waitForWaveform(
  api: ApiProcess,
  token: string,
  mixId: string,
): Promise<{ state: string; durationSeconds: number; peaks: number }> {
  for (;;) {
    const response = await fetch(`${api.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: `{ mix(id: "${mixId}") { waveform { state durationSeconds peaks } } }` }),
    });
    const { data } = (await response.json()) as {
      data: { mix: { waveform: { state: string; durationSeconds: number; peaks: number[] | null } } };
    };
    const { waveform } = data.mix;
    if (waveform.state !== 'PENDING') {
      return { state: waveform.state, durationSeconds: waveform.durationSeconds, peaks: waveform.peaks?.length ?? 0 };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const mbps = (bytes: number, ms: number) => (bytes / MB / (ms / 1000)).toFixed(1);
const mb = (bytes: number) => (bytes / MB).toFixed(1);

async function main(): Promise<void> {
  const database = await benchDatabase();
  const api = await startApi(database.url);
  let failed = false;
  try {
    const token = await signUp(api.base);
    const cover = await sharp({ create: { width: 1200, height: 1200, channels: 3, background: { r: 30, g: 90, b: 160 } } })
      .png()
      .toBuffer();
    const frames = mp3Frames(20, 320);
    const repeats = Math.floor(MP3_RULE.maxBytes / frames.length);
    const size = frames.length * repeats;
    out(
      `media upload benchmark: one ${mb(size)} MB MP3 (${((repeats * 20) / 60).toFixed(0)} min at 320 kbps), loopback, API in its own process`,
    );

    // Warm-up: loads sharp, music-metadata and the job queue, so the figures below are the upload's own cost.
    const warm = await createMixWithFile(api, token, cover, frames, 2);
    if (warm.status !== 201) throw new Error(`warm-up failed: ${warm.status} ${warm.body}`);
    await waitForWaveform(api, token, (JSON.parse(warm.body) as { _id: string })._id);

    let started = performance.now();
    const direct = await measureRss(api.pid, () => createMixWithFile(api, token, cover, frames, repeats));
    const directMs = performance.now() - started;
    if (direct.result.status !== 201) throw new Error(`create-mix failed: ${direct.result.status} ${direct.result.body}`);
    const directMix = (JSON.parse(direct.result.body) as { _id: string })._id;

    started = performance.now();
    const waveform = await measureRss(api.pid, () => waitForWaveform(api, token, directMix));
    const waveformMs = performance.now() - started;

    started = performance.now();
    const resumable = await measureRss(api.pid, async () => {
      const id = await tusUpload(api, token, frames, repeats);
      const transferMs = performance.now() - started;
      const created = await createMixWithUpload(api, token, cover, id);
      return { created, transferMs };
    });
    const resumableMs = performance.now() - started;
    if (resumable.result.created.status !== 201) throw new Error(`create-mix (tus) failed: ${resumable.result.created.body}`);

    const rows: [string, string, string, string][] = [
      [
        'create-mix, multipart stream',
        `${mbps(size, directMs)} MB/s (${(directMs / 1000).toFixed(1)} s)`,
        mb(direct.before),
        mb(direct.peak - direct.before),
      ],
      [
        'tus PATCH + create-mix by id',
        `${mbps(size, resumableMs)} MB/s (${(resumableMs / 1000).toFixed(1)} s; transfer ${mbps(size, resumable.result.transferMs)} MB/s)`,
        mb(resumable.before),
        mb(resumable.peak - resumable.before),
      ],
      [
        `waveform job (${waveform.result.state}, ${waveform.result.peaks} peaks, ${waveform.result.durationSeconds.toFixed(1)} s)`,
        `${(waveformMs / 1000).toFixed(1)} s after create-mix answered`,
        mb(waveform.before),
        mb(waveform.peak - waveform.before),
      ],
    ];
    out();
    out('| path | throughput | server RSS before (MB) | peak RSS growth (MB) |');
    out('|---|---|---|---|');
    for (const row of rows) out(`| ${row.join(' | ')} |`);
    const worst = Math.max(direct.peak - direct.before, resumable.peak - resumable.before) / MB;
    failed = worst >= TARGET_GROWTH_MB;
    out();
    out(`upload RSS growth target < ${TARGET_GROWTH_MB} MB: ${failed ? 'MISSED' : 'met'} (worst ${worst.toFixed(1)} MB)`);
  } finally {
    await api.stop();
    await database.close();
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
