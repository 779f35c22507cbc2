import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type Member, signUpMember, type TestApp } from './support/app.js';
import { sineMp3 } from './support/audio.js';
import { solidImage } from './support/images.js';
import { publishedMix } from './support/mixes.js';
import { createMixOver } from './support/upload.js';

/** A web build as the server reads it: the entry in index.html, its Vite manifest, and a server renderer beside it. */
const INDEX = `<!doctype html><html><head><title>mixcrate</title><script type="module" crossorigin src="/assets/index-1.js"></script><link rel="stylesheet" crossorigin href="/assets/index-1.css"></head><body><div id="root"></div></body></html>`;
const MANIFEST = {
  'index.html': { file: 'assets/index-1.js' },
  'src/lib/GraphQLBoundary.tsx': { file: 'assets/GraphQLBoundary-1.js' },
  'src/pages/mix/SharedMixPage.tsx': { file: 'assets/SharedMixPage-1.js' },
};
const RENDERER = `export async function renderPage(path) {
  return path.startsWith('/shared-mix/') ? { html: '<main>rendered</main>', state: { rendered: true } } : null;
}`;

const PAGE_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' blob: data:",
  "font-src 'self' data:",
  "object-src 'none'",
  /script-src 'self' 'nonce-[A-Za-z0-9+/]{22}=='/,
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
];
const MEDIA_POLICY = "default-src 'none';media-src 'self';style-src 'unsafe-inline';frame-ancestors 'none'";

type Headers = Record<string, string | string[] | number | undefined>;
const headersOf = (response: Response): Headers => Object.fromEntries(response.headers.entries());
const directives = (headers: Headers) => String(headers['content-security-policy']).split(';');
const scriptNonce = (headers: Headers) => /'nonce-([^']+)'/.exec(String(headers['content-security-policy']))?.[1];

function expectPagePolicy(headers: Headers, label: string) {
  const policy = directives(headers);
  expect(policy, label).toHaveLength(PAGE_POLICY.length);
  PAGE_POLICY.forEach((expected, index) => {
    if (typeof expected === 'string') expect(policy[index], label).toBe(expected);
    else expect(policy[index], label).toMatch(expected);
  });
}

/** What every answer carries, page, API or file. */
function expectEveryAnswerHeaders(headers: Headers, label: string) {
  expect(headers['x-content-type-options'], label).toBe('nosniff');
  expect(headers['referrer-policy'], label).toBe('no-referrer');
  expect(headers['strict-transport-security'], label).toBeUndefined();
  // Framing is the policy's frame-ancestors alone (so the embed player can be framed).
  expect(headers['x-frame-options'], label).toBeUndefined();
}

let buildDir: string;
let webRoot: string;
let t: TestApp;
let base: string;
let dj: Member;
let uploaded: { _id: string; mp3: string; cover: string };
let sharedMixId: string;
const mp3 = sineMp3({ seconds: 10, kbps: 128 });

beforeAll(async () => {
  buildDir = await mkdtemp(join(tmpdir(), 'mixcrate-headers-'));
  webRoot = join(buildDir, 'dist');
  await mkdir(join(webRoot, 'assets'), { recursive: true });
  await mkdir(join(webRoot, '.vite'));
  await mkdir(join(buildDir, 'dist-server'));
  await writeFile(join(webRoot, 'index.html'), INDEX);
  await writeFile(join(webRoot, 'assets', 'index-1.js'), 'console.log(1)');
  await writeFile(join(webRoot, 'assets', 'index-1.css'), 'body{margin:0}');
  await writeFile(join(webRoot, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  await writeFile(join(buildDir, 'dist-server', 'render.js'), RENDERER);
  t = await createTestApp({}, undefined, webRoot);
  // A real server: media is answered before Fastify, and tus writes to the raw response.
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  dj = await signUpMember(t.app, { userType: 'dj' });
  uploaded = await createMixOver(t.app, dj.token, { cover: await solidImage('jpeg', 400, 400), mp3 });
  sharedMixId = await publishedMix(t.app, t.services, dj);
}, 60_000);
afterAll(async () => {
  await t.close();
  await rm(buildDir, { recursive: true, force: true });
});

describe('pages of the web app', () => {
  test('the landing page, a client route and an asset carry the policy the app runs under', async () => {
    for (const path of ['/', '/home', '/assets/index-1.js']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(200);
      const headers = headersOf(response);
      expectEveryAnswerHeaders(headers, path);
      expectPagePolicy(headers, path);
      expect(headers['cross-origin-opener-policy'], path).toBe('same-origin');
      expect(headers['cross-origin-resource-policy'], path).toBe('same-origin');
    }
  });

  test("a shared mix page's one inline script carries the answer's nonce, which is new for every answer", async () => {
    const nonces = new Set<string>();
    for (let visit = 0; visit < 2; visit += 1) {
      const response = await fetch(`${base}/shared-mix/${sharedMixId}`);
      const html = await response.text();
      const headers = headersOf(response);
      expectPagePolicy(headers, 'shared mix');
      const nonce = scriptNonce(headers) ?? '';
      nonces.add(nonce);
      expect(html).toContain('<main>rendered</main>');
      const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1]);
      // The page's data is JSON (never run); the app's loader runs under the nonce; nothing else is inline.
      expect(scripts).toEqual([' type="application/json" id="mixcrate-state"', ` nonce="${nonce}"`]);
    }
    expect(nonces.size).toBe(2);
  });

  test('pages under /embed/ may be framed by any site, and only those', async () => {
    const embed = headersOf(await fetch(`${base}/embed/mix/${sharedMixId}`));
    expect(directives(embed)).toContain('frame-ancestors *');
    expectEveryAnswerHeaders(embed, 'embed');
    for (const path of ['/embed', '/embedded/x', `/shared-mix/${sharedMixId}`]) {
      expect(directives(headersOf(await fetch(`${base}${path}`))), path).toContain("frame-ancestors 'none'");
    }
  });
});

describe('API answers', () => {
  test('REST answers, success and failure, carry the headers', async () => {
    const oembed = await fetch(`${base}/api/oembed?url=${encodeURIComponent(`${t.config.PUBLIC_URL}/shared-mix/${sharedMixId}`)}`);
    expect(oembed.status).toBe(200);
    const refused = await fetch(`${base}/api/user/logged-in-user`, { headers: { 'x-auth-token': 'not a token' } });
    expect(refused.status).toBe(401);
    const missing = await fetch(`${base}/api/no-such-route`);
    expect(missing.status).toBe(404);
    for (const [label, response] of Object.entries({ oembed, refused, missing })) {
      expectEveryAnswerHeaders(headersOf(response), label);
      expectPagePolicy(headersOf(response), label);
    }
  });

  test('GraphQL answers carry the headers', async () => {
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
    expectEveryAnswerHeaders(headersOf(response), 'graphql');
    expectPagePolicy(headersOf(response), 'graphql');
  });

  test('tus upload answers, written to the raw response, carry the headers', async () => {
    const tus = { 'tus-resumable': '1.0.0', 'x-auth-token': dj.token };
    const created = await fetch(`${base}/api/uploads`, { method: 'POST', headers: { ...tus, 'upload-length': '1000' } });
    expect(created.status).toBe(201);
    const offset = await fetch(`${base}${created.headers.get('location')}`, { method: 'HEAD', headers: tus });
    expect(offset.headers.get('upload-offset')).toBe('0');
    const options = await fetch(`${base}/api/uploads`, { method: 'OPTIONS' });
    for (const [label, response] of Object.entries({ created, offset, options })) {
      expectEveryAnswerHeaders(headersOf(response), label);
      expectPagePolicy(headersOf(response), label);
    }
  });
});

describe('media files', () => {
  const expectMediaHeaders = (headers: Headers, label: string) => {
    expectEveryAnswerHeaders(headers, label);
    expect(headers['content-security-policy'], label).toBe(MEDIA_POLICY);
    // Covers and mixes are shared to other sites.
    expect(headers['cross-origin-resource-policy'], label).toBe('cross-origin');
  };

  test('an MP3, a cover, a range of one and a missing file, answered before Fastify, carry the headers', async () => {
    const owner = { 'x-auth-token': dj.token };
    const audio = await fetch(`${base}${uploaded.mp3}`, { headers: owner });
    expect([audio.status, audio.headers.get('content-type')]).toEqual([200, 'audio/mpeg']);
    expect(Buffer.from(await audio.arrayBuffer()).equals(mp3)).toBe(true);
    const range = await fetch(`${base}${uploaded.mp3}`, { headers: { ...owner, range: 'bytes=0-99' } });
    expect(range.status).toBe(206);
    const cover = await fetch(`${base}${uploaded.cover}`, { method: 'HEAD', headers: owner });
    expect([cover.status, cover.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const missing = await fetch(`${base}/media/mix/mix-audio/no-such-file.mp3`);
    expect(missing.status).toBe(404);
    for (const [label, response] of Object.entries({ audio, range, cover, missing })) expectMediaHeaders(headersOf(response), label);
  });

  test('the same headers when media is asked of Fastify itself (app.inject)', async () => {
    const response = await t.app.inject({ method: 'GET', url: uploaded.cover, headers: { 'x-auth-token': dj.token } });
    expect(response.statusCode).toBe(200);
    expectMediaHeaders(response.headers, 'inject');
  });
});

describe('HSTS when the server is told people reach it over HTTPS', () => {
  let secure: TestApp;
  let secureBase: string;
  beforeAll(async () => {
    secure = await createTestApp({ HSTS: '1', PUBLIC_URL: 'https://mixcrate.example' }, { databaseUrl: t.databaseUrl }, webRoot);
    secureBase = await secure.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => secure.close());

  test('every answer, page, API and file, carries Strict-Transport-Security, and the pages upgrade insecure requests', async () => {
    const member = await signUpMember(secure.app);
    const { cover } = await createMixOver(secure.app, member.token, { cover: await solidImage('jpeg', 400, 400), mp3 });
    const answers = {
      page: await fetch(`${secureBase}/home`),
      graphql: await fetch(`${secureBase}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      }),
      rest: await fetch(`${secureBase}/api/no-such-route`),
      media: await fetch(`${secureBase}${cover}`, { headers: { 'x-auth-token': member.token } }),
    };
    expect(answers.media.status).toBe(200);
    for (const [label, response] of Object.entries(answers)) {
      expect(response.headers.get('strict-transport-security'), label).toBe('max-age=31536000');
      expect(response.headers.get('x-content-type-options'), label).toBe('nosniff');
    }
    expect(directives(headersOf(answers.page)).at(-1)).toBe('upgrade-insecure-requests');
    expect(answers.media.headers.get('content-security-policy')).toBe(MEDIA_POLICY);
  });
});
