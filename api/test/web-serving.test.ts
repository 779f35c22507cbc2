import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';

let t: TestApp;
const BIG_SCRIPT = `export const tracks = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `track ${i}`))};`;
let webRoot: string;
beforeAll(async () => {
  webRoot = await mkdtemp(join(tmpdir(), 'mixcrate-web-'));
  await mkdir(join(webRoot, 'assets'));
  await writeFile(join(webRoot, 'index.html'), `<!doctype html><title>mixcrate</title>${'<!-- padding -->'.repeat(100)}`);
  await writeFile(join(webRoot, 'assets', 'app-1234.js'), 'console.log(1)');
  await writeFile(join(webRoot, 'assets', 'big-5678.js'), BIG_SCRIPT);
  await writeFile(join(webRoot, 'assets', 'big-5678.js.br'), brotliCompressSync(BIG_SCRIPT));
  t = await createTestApp({}, undefined, webRoot);
});
afterAll(async () => {
  await t.close();
  await rm(webRoot, { recursive: true, force: true });
});

test('client routes fall back to index.html', async () => {
  // (A shared link to nobody is a 404 page: see share-links.test.ts.)
  for (const url of ['/', '/home', '/mix/123', '/settings?x=1']) {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBe(200);
    expect(response.body).toContain('<title>mixcrate</title>');
  }
});

test('assets are served, and a missing asset is a 404 rather than index.html', async () => {
  expect((await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' })).body).toBe('console.log(1)');
  for (const url of ['/assets/app-old.js', '/favicon-missing.png', '/api/nope', '/graphql/nope']) {
    expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
  }
});

test('the web app is sent from its precompressed copies, and API answers are compressed on the way out', async () => {
  const asset = await t.app.inject({ method: 'GET', url: '/assets/big-5678.js', headers: { 'accept-encoding': 'br, gzip' } });
  expect(asset.headers['content-encoding']).toBe('br');
  expect(brotliDecompressSync(asset.rawPayload).toString()).toBe(BIG_SCRIPT);
  const plain = await t.app.inject({ method: 'GET', url: '/assets/big-5678.js' });
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body).toBe(BIG_SCRIPT);

  const page = await t.app.inject({ method: 'GET', url: '/home', headers: { 'accept-encoding': 'gzip' } });
  expect(page.headers['content-type']).toContain('text/html');
  expect(gunzipSync(page.rawPayload).toString()).toContain('<title>mixcrate</title>');

  const query = `{ __schema { types { name description } } }`;
  const api = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'accept-encoding': 'gzip', 'content-type': 'application/json' },
    payload: { query },
  });
  expect(api.headers['content-encoding']).toBe('gzip');
  expect(JSON.parse(gunzipSync(api.rawPayload).toString()).data.__schema.types.length).toBeGreaterThan(10);
});
