import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';

let t: TestApp;
let webRoot: string;
beforeAll(async () => {
  webRoot = await mkdtemp(join(tmpdir(), 'mixcrate-web-'));
  await mkdir(join(webRoot, 'assets'));
  await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>mixcrate</title>');
  await writeFile(join(webRoot, 'assets', 'app-1234.js'), 'console.log(1)');
  t = await createTestApp({}, undefined, webRoot);
});
afterAll(async () => {
  await t.close();
  await rm(webRoot, { recursive: true, force: true });
});

test('client routes fall back to index.html', async () => {
  for (const url of ['/', '/home', '/mix/123', '/shared-profile/someone?x=1']) {
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
