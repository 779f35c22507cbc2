import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, expect, test } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { freePort } from './support/ports.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A first start's configuration: the embedded PostgreSQL on a fresh data folder, a port of its own. */
async function firstStart(demo: boolean) {
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-web-beside-'));
  dirs.push(dataDir);
  // mkdtemp makes a private folder; as root the embedded server runs as 'postgres' and must be able to enter it.
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: String(port),
    EMBEDDED_PG_PORT: String(await freePort()),
    DEMO: demo ? '1' : '0',
  });
  const messages: string[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        messages.push((JSON.parse(chunk.toString()) as { msg: string }).msg);
        done();
      },
    }),
  );
  const answers = () =>
    fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.status,
      () => null,
    );
  return { config, log, messages, answers };
}

function deferred() {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

test("beside the web app's build, the demo world's rows go in while nothing is served; the server listens once the build is done", async () => {
  const { config, log, messages, answers } = await firstStart(true);
  const webBuild = deferred();
  let started = false;
  const starting = startServer(config, log, undefined, { webBuilt: webBuild.promise }).then((server) => {
    started = true;
    return server;
  });
  try {
    const rowsIn = () => messages.some((message) => message.startsWith('demo world: members, mixes and tracklists in'));
    const deadline = Date.now() + 120_000;
    while (!rowsIn() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(rowsIn(), messages.join('\n')).toBe(true);
    expect(started).toBe(false);
    expect(await answers()).toBeNull();

    webBuild.resolve();
    await starting;
    expect(await answers()).toBe(200);
  } finally {
    webBuild.resolve();
    await (await starting).stop();
  }
}, 180_000);

test('a web build that fails fails the start: nothing is served and the embedded PostgreSQL is stopped', async () => {
  const { config, log, answers } = await firstStart(false);
  const webBuild = deferred();
  // As main.ts's is: the start sees the failure when it comes to wait for the build.
  webBuild.promise.catch(() => undefined);
  const starting = startServer(config, log, undefined, { webBuilt: webBuild.promise });
  webBuild.reject(new Error("the web app's build failed"));
  try {
    await expect(starting).rejects.toThrow(/build failed/);
    expect(await answers()).toBeNull();
  } finally {
    await starting.then(
      (server) => server.stop(),
      () => undefined,
    );
  }
  // Stopped: the same data folder starts again.
  const again = await startServer(config, log);
  await again.stop();
}, 120_000);
