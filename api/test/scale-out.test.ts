/**
 * Scale-out: two API processes as two hosts (each in a network namespace of its own, reaching PostgreSQL, Redis and
 * the bucket over its veth link; two ports of this machine where namespaces cannot be made) behind a real nginx from
 * Debian, sharing one PostgreSQL, Redis and a Cloud Storage bucket (the GCS stand-in). What one host does, the other sees: a mix uploaded
 * through one streams from the other, a play on one moves the count seen on the other, a resumable upload begun on one
 * finishes on the other (its state is in shared storage, not on one host's disk); and once one host is killed, requests
 * through the proxy keep succeeding.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, dropTestDatabase, STRONG_PASSWORD } from './support/app.js';
import { sineMp3 } from './support/audio.js';
import { type GcsStandIn, startGcsStandIn } from './support/gcs-stand-in.js';
import { type HostNetwork, makeHostNetwork } from './support/host-network.js';
import { solidImage } from './support/images.js';
import { typedTracks } from './support/mixes.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';
import { waitFor } from './support/wait.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
const TUS = { 'tus-resumable': '1.0.0' };

let databaseUrl: string;
let standIn: GcsStandIn;
let dirs: string[] = [];
let hostA: ServerProcess;
let hostB: ServerProcess;
let proxy: { url: string; child: ChildProcess };
let token: string;
let networks: HostNetwork[] = [];

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** nginx in front of both hosts, as a load balancer would be: a host that refuses connections is skipped. */
async function startProxy(hosts: ServerProcess[]): Promise<{ url: string; child: ChildProcess }> {
  const dir = await mkdtemp(join(tmpdir(), 'mixcrate-scale-nginx-'));
  dirs.push(dir);
  const port = await freePort();
  await writeFile(
    join(dir, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 0;
  upstream mixcrate { ${hosts.map((host) => `server ${new URL(host.url).host} max_fails=1 fail_timeout=30s;`).join(' ')} }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://mixcrate;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_next_upstream error timeout http_502 non_idempotent;
      proxy_request_buffering off;
    }
  }
}
`,
  );
  const child = spawn(NGINX ?? 'nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  await waitFor('nginx to accept requests', () =>
    fetch(`${url}/api/oembed`).then(
      () => true,
      () => false,
    ),
  );
  return { url, child };
}

const auth = () => ({ 'x-auth-token': token });
const json = (body: unknown) => ({
  method: 'POST',
  headers: { ...auth(), 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

beforeAll(async () => {
  // CI installs nginx (.ci/run); a machine without it cannot run this.
  if (!NGINX) throw new Error('nginx is not installed (apt-get install nginx)');
  databaseUrl = await createTestDatabase();
  standIn = await startGcsStandIn();
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const shared = {
    GCS_BUCKET: 'mixcrate-scale-out',
    GCS_PROJECT_ID: 'mixcrate-test',
    TRUST_PROXY: '1',
    // Hosts of one site sign with one key (each would otherwise generate its own into its DATA_DIR).
    JWT_SECRET: randomBytes(32).toString('hex'),
  };
  const host = async (index: number) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-scale-host-'));
    dirs.push(dataDir);
    const network = makeHostNetwork(index);
    if (!network)
      return startServerProcess({ databaseUrl, dataDir, env: { ...shared, REDIS_URL: redisUrl, GCS_API_ENDPOINT: standIn.url } });
    networks.push(network);
    // The shared services, as this host reaches them: through its link to this machine.
    const through = async (url: string) => {
      const parsed = new URL(url);
      parsed.host = await network.forward(parsed.host);
      return parsed.toString().replace(/\/$/, '');
    };
    return startServerProcess({
      databaseUrl: await through(databaseUrl),
      dataDir,
      env: { ...shared, REDIS_URL: await through(redisUrl), GCS_API_ENDPOINT: await through(standIn.url) },
      host: { address: network.address, command: network.command },
    });
  };
  // One after the other: the first applies the migrations.
  hostA = await host(1);
  hostB = await host(2);
  proxy = await startProxy([hostA, hostB]);
  const signUp = await fetch(`${hostA.url}/api/user/create-user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'scale@example.com', password: STRONG_PASSWORD, has_opted_in: false }),
  });
  expect(signUp.status).toBe(201);
  token = ((await signUp.json()) as { token: string }).token;
}, 120_000);

afterAll(async () => {
  proxy?.child.kill('SIGQUIT');
  if (proxy) await once(proxy.child, 'exit').catch(() => undefined);
  await Promise.all([hostA?.stop(), hostB?.stop()]);
  await Promise.all(networks.map((network) => network.remove()));
  networks = [];
  await standIn?.close();
  if (databaseUrl) await dropTestDatabase(databaseUrl);
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  dirs = [];
});

async function createMix(host: ServerProcess, mp3: Blob | string): Promise<{ _id: string; mp3: string }> {
  const form = new FormData();
  form.append('cover', new Blob([await solidImage('jpeg', 400, 400)], { type: 'image/jpeg' }), 'cover.jpg');
  form.append('title', 'Across hosts');
  form.append('genre', 'house');
  if (typeof mp3 === 'string') form.append('mp3', mp3);
  else form.append('mp3', mp3, 'mix.mp3');
  const response = await fetch(`${host.url}/api/mix/create-mix`, { method: 'POST', headers: auth(), body: form });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { _id: string; mp3: string };
}

describe('two hosts behind nginx, sharing PostgreSQL, Redis and the bucket', () => {
  const mp3 = sineMp3({ seconds: 20, kbps: 128, envelope: () => 0.5 });
  let mixId: string;

  test('a mix uploaded through one host streams from the other', async () => {
    const mix = await createMix(hostA, new Blob([mp3], { type: 'audio/mpeg' }));
    mixId = mix._id;
    const whole = await fetch(`${hostB.url}${mix.mp3}`, { headers: auth() });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(mp3)).toBe(true);
    const range = await fetch(`${hostB.url}${mix.mp3}`, { headers: { ...auth(), range: 'bytes=1000-1999' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(mp3.subarray(1000, 2000))).toBe(true);
  });

  test('a play on one host moves the count seen on the other', async () => {
    expect((await fetch(`${hostA.url}/api/mix/update-mix`, json({ mix_id: mixId, tracks: typedTracks(5) }))).status).toBe(200);
    expect((await fetch(`${hostB.url}/api/mix/publish-mix`, json({ mix_id: mixId, code: 'free-mix' }))).status).toBe(200);
    const play = async (host: ServerProcess) =>
      ((await (await fetch(`${host.url}/api/mix/play/${mixId}`, { method: 'POST', headers: auth() })).json()) as { play_count: number })
        .play_count;
    const first = await play(hostA);
    expect(await play(hostB)).toBe(first + 1);
    expect(await play(hostA)).toBe(first + 2);
  });

  test('a resumable upload begun on one host finishes on the other, and becomes a mix there', async () => {
    const created = await fetch(`${hostA.url}/api/uploads`, {
      method: 'POST',
      headers: { ...TUS, ...auth(), 'upload-length': String(mp3.length) },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    const patch = (host: ServerProcess, offset: number, bytes: Buffer) =>
      fetch(`${host.url}${location}`, {
        method: 'PATCH',
        headers: { ...TUS, ...auth(), 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: bytes,
      });
    const half = Math.floor(mp3.length / 2);
    expect((await patch(hostA, 0, mp3.subarray(0, half))).status).toBe(204);
    const head = await fetch(`${hostB.url}${location}`, { method: 'HEAD', headers: { ...TUS, ...auth() } });
    expect(head.headers.get('upload-offset')).toBe(String(half));
    const rest = await patch(hostB, half, mp3.subarray(half));
    expect(rest.status).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(mp3.length));
    // The bytes waited in the bucket, on neither host's disk.
    expect([...standIn.objects.keys()].some((name) => name.startsWith('mixcrate-scale-out/resumable-uploads/'))).toBe(true);
    const mix = await createMix(hostB, location.split('/').pop() ?? '');
    const stored = await fetch(`${hostA.url}${mix.mp3}`, { headers: auth() });
    expect(Buffer.from(await stored.arrayBuffer()).equals(mp3)).toBe(true);
  });

  test('after one host is killed, the next requests through the proxy succeed', async () => {
    const feed = () => fetch(`${proxy.url}/api/mix/get-mixes-by-genre-and-distance`, json({ genre: 'all', search_radius: 20000 }));
    for (let i = 0; i < 4; i += 1) expect((await feed()).status).toBe(200);
    await hostA.crash();
    for (let i = 0; i < 10; i += 1) {
      const response = await feed();
      expect(response.status).toBe(200);
      expect(((await response.json()) as { count: number }).count).toBe(1);
    }
    const play = await fetch(`${proxy.url}/api/mix/play/${mixId}`, { method: 'POST', headers: auth() });
    expect(play.status).toBe(200);
  });
});

// The proxy is Debian's nginx: say which, so a failure on another machine is easier to read.
test('nginx is the one from the distribution', () => {
  const version = spawnSync(NGINX ?? 'nginx', ['-v'], { encoding: 'utf8' });
  expect(version.stderr).toMatch(/nginx version: nginx\//);
});
