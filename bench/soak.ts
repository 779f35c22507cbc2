/**
 * Soak: BENCH_SOAK_SECONDS (default 600) of mixed traffic at a fixed rate, open loop (BENCH_SOAK_RATE operations a
 * second, default 40, sent when due whatever the answers do), from this process to the API in its own process on a
 * fresh database and DATA_DIR: feed pages (REST and GraphQL, genres, radii, points, second pages), mix pages, listens
 * (play, start, heartbeats, pause), saves, follows, Range GETs and covers on /media, graphql-ws subscriptions
 * (mixListenerCount) held open and replaced, and small uploads (create-mix and tus; every other one published).
 * Members are signed up once while seeding, from several loopback addresses so sign-up's per-address limit is not hit.
 *
 * Figures: per operation count, errors, p50 / p99; the server's RSS after warm-up (BENCH_SOAK_WARMUP s, default 60)
 * and at the end. Targets: no errors (any 5xx, network error, timeout, GraphQL error or unexpected status; each is
 * listed with its body and the server's error log lines), RSS growth under 10% after warm-up.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { createClient, type Client as WsClient } from 'graphql-ws';
import pg from 'pg';
import sharp from 'sharp';
import WebSocket from 'ws';
import { type BenchDatabase, benchDatabase, MB, mp3Frames, out, ROOT, rssOf } from './support.js';

const env = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const SECONDS = env('BENCH_SOAK_SECONDS', 600);
const RATE = env('BENCH_SOAK_RATE', 40);
const WARMUP = env('BENCH_SOAK_WARMUP', Math.min(60, Math.round(SECONDS / 4)));
const MEMBERS = Math.max(4, env('BENCH_SOAK_MEMBERS', 24));
const CREATORS = Math.min(MEMBERS, 8);
const MIXES_PER_CREATOR = 2;
const SUBSCRIPTIONS = env('BENCH_SOAK_SUBSCRIPTIONS', 30);
const RSS_EVERY_MS = 5000;
const REQUEST_TIMEOUT_MS = 30_000;
/** Sign-up allows 10 an hour per address: members sign up (and then send their traffic) from 127.0.0.1, .2, ... */
const MEMBERS_PER_ADDRESS = 8;
const RANGE_BYTES = 64 * 1024;
const TARGET_GROWTH = 0.1;
const PASSWORD = 'Mixcrate1!';
const GENRES = ['house', 'techno', 'deep_house', 'garage'];
const FEED_GENRES = ['all', 'all', ...GENRES, 'edm'];
const RADII = [50, 500, 2000, 20_000, 20_000];
const CITIES = [
  { latitude: 52.52, longitude: 13.405 },
  { latitude: 51.5074, longitude: -0.1278 },
  { latitude: 48.8566, longitude: 2.3522 },
  { latitude: 40.7128, longitude: -74.006 },
  { latitude: -33.8688, longitude: 151.2093 },
];

// ---------------------------------------------------------------------------------------------------------------
// A seeded PRNG, so two runs send the same mix of operations.
let prngState = env('BENCH_SOAK_SEED', 14) >>> 0;
function random(): number {
  prngState = (prngState + 0x6d2b79f5) >>> 0;
  let t = prngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load1 = () => loadavg()[0].toFixed(2);
const loads = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

// ---------------------------------------------------------------------------------------------------------------
// HTTP over keep-alive connections from a chosen loopback address (node:http: the client costs little CPU, and
// `localAddress` spreads members over addresses).

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const agents = new Map<string, Agent>();
function agentFor(address: string): Agent {
  let agent = agents.get(address);
  if (!agent) {
    agent = new Agent({ keepAlive: true, maxSockets: 48, maxFreeSockets: 48 });
    agents.set(address, agent);
  }
  return agent;
}

const inflate = { br: promisify(brotliDecompress), gzip: promisify(gunzip) };

let base = '';
function send(
  method: string,
  path: string,
  options: { address?: string; token?: string; json?: unknown; body?: Buffer; headers?: Record<string, string | number> } = {},
): Promise<Answer> {
  const address = options.address ?? '127.0.0.1';
  const headers: Record<string, string | number> = { 'accept-encoding': 'br, gzip', ...options.headers };
  if (options.token) headers['x-auth-token'] = options.token;
  let body = options.body;
  if (options.json !== undefined) {
    body = Buffer.from(JSON.stringify(options.json));
    headers['content-type'] = 'application/json';
  }
  if (body) headers['content-length'] = body.length;
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}${path}`, { method, headers, agent: agentFor(address), localAddress: address }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = response.headers['content-encoding'];
        const decoded = encoding === 'br' ? inflate.br(raw) : encoding === 'gzip' ? inflate.gzip(raw) : Promise.resolve(raw);
        decoded.then((decodedBody) => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: decodedBody }), reject);
      });
    });
    request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end(body);
  });
}

const jsonOf = <T>(answer: Answer): T => JSON.parse(answer.body.toString('utf8')) as T;

// ---------------------------------------------------------------------------------------------------------------
// Figures per operation, and every failure with what the server said.

class Failure extends Error {
  constructor(
    readonly status: number | string,
    readonly detail: string,
  ) {
    super(`${status}: ${detail}`);
  }
}

interface OpStats {
  ms: number[];
  errors: number;
}
interface FailureSample {
  op: string;
  status: number | string;
  atSeconds: number;
  detail: string;
}
const stats = new Map<string, OpStats>();
const failures = new Map<string, { count: number; samples: FailureSample[] }>();
let loadStartedAt = 0;
/** When an operation (but /media) last succeeded: when nothing has for WEDGED_SECONDS, the server is wedged and the load stops. */
let lastAnswerAt = 0;
const WEDGED_SECONDS = 90;
const elapsedSeconds = () => (loadStartedAt === 0 ? 0 : (performance.now() - loadStartedAt) / 1000);

function statsOf(op: string): OpStats {
  let entry = stats.get(op);
  if (!entry) {
    entry = { ms: [], errors: 0 };
    stats.set(op, entry);
  }
  return entry;
}

function fail(op: string, status: number | string, detail: string): void {
  statsOf(op).errors += 1;
  const key = `${op} ${status}`;
  let entry = failures.get(key);
  if (!entry) {
    entry = { count: 0, samples: [] };
    failures.set(key, entry);
  }
  entry.count += 1;
  if (entry.samples.length < 3) entry.samples.push({ op, status, atSeconds: elapsedSeconds(), detail: detail.slice(0, 600) });
}

/** Times one request (or step) as `op`; a wrong status, a GraphQL error, a network error or a timeout is a failure. */
async function timed<T>(op: string, run: () => Promise<T>): Promise<T | undefined> {
  const started = performance.now();
  try {
    const result = await run();
    const answered = performance.now();
    // /media answers from its cache without the database: only the rest tells a live server from a wedged one.
    if (!op.startsWith('media')) lastAnswerAt = answered;
    statsOf(op).ms.push(answered - started);
    return result;
  } catch (error) {
    statsOf(op).ms.push(performance.now() - started);
    if (error instanceof Failure) fail(op, error.status, error.detail);
    else fail(op, 'network', (error as Error).message ?? String(error));
    return undefined;
  }
}

function expectStatus(answer: Answer, ...statuses: number[]): Answer {
  if (!statuses.includes(answer.status)) throw new Failure(answer.status, answer.body.toString('utf8'));
  return answer;
}

async function graphql<T>(query: string, variables: Record<string, unknown>, member?: Member): Promise<T> {
  const answer = await send('POST', '/graphql', {
    address: member?.address,
    json: { query, variables },
    headers: member ? { authorization: `Bearer ${member.token}` } : {},
  });
  expectStatus(answer, 200);
  const result = jsonOf<{ data?: T; errors?: { message: string; extensions?: { code?: string } }[] }>(answer);
  if (result.errors?.length) throw new Failure(`graphql ${result.errors[0]?.extensions?.code ?? 'error'}`, answer.body.toString('utf8'));
  return result.data as T;
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}

// ---------------------------------------------------------------------------------------------------------------
// The API in its own process, its log in a file, stopped (and its files, database and log removed) whatever happens.

interface Api {
  pid: number;
  child: ChildProcess;
  logPath: string;
  exited: boolean;
}

const cleanups: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | null = null;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => out(`cleanup: ${(error as Error).message}`));
  })();
  return cleaning;
}
/** Set by Ctrl-C while the load runs: the load stops, the figures so far are printed, then everything is cleaned up. */
let interrupted = false;
let loadRunning = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    process.exitCode = 130;
    if (loadRunning && !interrupted) {
      interrupted = true;
      out(`\n${signal}: stopping the load; the figures so far follow, then the API, database and files are removed (again to quit now)`);
      return;
    }
    interrupted = true;
    out(`\n${signal}: stopping the API, dropping the database, removing the temporary files ...`);
    cleanUp().finally(() => process.exit(130));
  });
}

let apiLog: string | undefined;

/** The server's log lines at error level (with their stacks), and the first warnings. */
async function printServerLog(logPath: string): Promise<void> {
  const lines = (await readFile(logPath, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const levelOf = (line: string) => {
    try {
      return (JSON.parse(line) as { level?: number }).level ?? 60;
    } catch {
      return 60; // not pino's JSON: something the process printed on stderr
    }
  };
  const errors = lines.filter((line) => levelOf(line) >= 50);
  const warnings = lines.filter((line) => levelOf(line) < 50);
  out(`server log: ${errors.length} lines at error level (or not JSON), ${warnings.length} warnings`);
  for (const line of errors.slice(0, 8)) out(`    ${line.slice(0, 3000)}`);
  for (const line of warnings.slice(0, 3)) out(`    ${line.slice(0, 1000)}`);
  if (process.env.BENCH_SOAK_KEEP_LOG) {
    const kept = join(tmpdir(), `mixcrate-soak-api-${Date.now()}.log`);
    await writeFile(kept, lines.join('\n'));
    out(`server log kept at ${kept}`);
  }
}

async function startApi(databaseUrl: string): Promise<Api> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-bench-soak-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const logDir = await mkdtemp(join(tmpdir(), 'mixcrate-bench-soak-log-'));
  cleanups.push(() => rm(logDir, { recursive: true, force: true }));
  const logPath = join(logDir, 'api.log');
  apiLog = logPath;
  const logFd = openSync(logPath, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/soak-server.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: join(ROOT, 'api/tsconfig.json'),
      BENCH_SOAK_DATABASE_URL: databaseUrl,
      BENCH_SOAK_DATA_DIR: dataDir,
    },
    // stdin stays open: the server stops when it closes, so it cannot outlive this process.
    stdio: ['pipe', 'pipe', logFd],
  });
  closeSync(logFd);
  const api: Api = { pid: child.pid ?? 0, child, logPath, exited: false };
  child.once('exit', () => {
    api.exited = true;
  });
  cleanups.push(async () => {
    if (api.exited) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await once(child, 'exit').catch(() => undefined);
    clearTimeout(killer);
  });
  const lines = createInterface({ input: child.stdout ?? process.stdin });
  const first = await Promise.race([once(lines, 'line').then(([line]) => String(line)), once(child, 'exit').then(() => null)]);
  if (first === null) throw new Error(`the API did not start:\n${readFileSync(logPath, 'utf8').slice(-4000)}`);
  base = `http://127.0.0.1:${(JSON.parse(first) as { port: number }).port}`;
  return api;
}

// ---------------------------------------------------------------------------------------------------------------
// The world: members (some of them DJs with published mixes), and what the traffic changes as it goes.

interface Member {
  index: number;
  id: string;
  token: string;
  userName: string;
  address: string;
  location: { latitude: number; longitude: number };
}
interface Mix {
  id: string;
  mp3: string;
  cover: string;
  bytes: number;
}

const members: Member[] = [];
const mixes: Mix[] = [];

/** One small multipart form: cover, title, genre and the MP3 (a file, or a finished tus upload's id). */
function mixForm(cover: Buffer, title: string, genre: string, mp3: Buffer | string): { body: Buffer; type: string } {
  const boundary = `soak${randomBytes(8).toString('hex')}`;
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const parts: Buffer[] = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cover"; filename="cover.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    cover,
    Buffer.from(`\r\n${field('title', title)}${field('genre', genre)}`),
  ];
  if (typeof mp3 === 'string') parts.push(Buffer.from(field('mp3', mp3)));
  else {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="mp3"; filename="mix.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`),
      mp3,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

async function createMix(member: Member, cover: Buffer, title: string, genre: string, mp3: Buffer | string) {
  const form = mixForm(cover, title, genre, mp3);
  const answer = expectStatus(
    await send('POST', '/api/mix/create-mix', {
      address: member.address,
      token: member.token,
      body: form.body,
      headers: { 'content-type': form.type },
    }),
    201,
  );
  return jsonOf<{ _id: string; mp3: string; cover: string }>(answer);
}

async function tusUpload(member: Member, mp3: Buffer): Promise<string> {
  const created = expectStatus(
    await send('POST', '/api/uploads', {
      address: member.address,
      token: member.token,
      headers: { 'tus-resumable': '1.0.0', 'upload-length': mp3.length },
    }),
    201,
  );
  const location = new URL(String(created.headers.location), base).pathname;
  expectStatus(
    await send('PATCH', location, {
      address: member.address,
      token: member.token,
      body: mp3,
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': 0, 'content-type': 'application/offset+octet-stream' },
    }),
    204,
  );
  return location.split('/').pop() ?? '';
}

const tracklist = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ name: `Soak track ${index + 1}`, creators: `Artist ${index + 1}`, is_manual: true }));

async function publish(member: Member, mixId: string, op?: (name: string) => string): Promise<void> {
  const step = async (name: string, run: () => Promise<unknown>) => (op ? timed(op(name), run) : run());
  const listed = await step('update-mix (tracklist)', async () =>
    expectStatus(
      await send('POST', '/api/mix/update-mix', {
        address: member.address,
        token: member.token,
        json: { mix_id: mixId, tracks: tracklist(5) },
      }),
      200,
    ),
  );
  if (!listed) return;
  await step('publish-mix', async () =>
    expectStatus(
      await send('POST', '/api/mix/publish-mix', {
        address: member.address,
        token: member.token,
        json: { mix_id: mixId, code: 'free-mix' },
      }),
      200,
    ),
  );
}

/** The stored MP3's length, from a one-byte range (what a player's first request learns). */
async function storedBytes(mp3: string): Promise<number> {
  const answer = expectStatus(await send('GET', mp3, { headers: { range: 'bytes=0-0' } }), 206);
  return Number(/\/(\d+)$/.exec(String(answer.headers['content-range']))?.[1]);
}

async function seed(cover: Buffer, mixAudio: Buffer): Promise<void> {
  for (let index = 0; index < MEMBERS; index += 1) {
    const address = `127.0.0.${1 + Math.floor(index / MEMBERS_PER_ADDRESS)}`;
    const email = `soak-${index}-${randomBytes(3).toString('hex')}@example.com`;
    const signedUp = expectStatus(
      await send('POST', '/api/user/create-user', { address, json: { email, password: PASSWORD, has_opted_in: false } }),
      201,
    );
    const { token } = jsonOf<{ token: string }>(signedUp);
    const userName = `soak_${index}_${randomBytes(2).toString('hex')}`;
    const city = CITIES[index % CITIES.length] ?? CITIES[0];
    const location = { latitude: city.latitude + (random() - 0.5), longitude: city.longitude + (random() - 0.5) };
    expectStatus(await send('PATCH', '/api/user/add-username', { address, token, json: { user_name: userName } }), 200);
    expectStatus(await send('PATCH', '/api/user/update-location', { address, token, json: { location } }), 200);
    const me = jsonOf<{ _id: string }>(expectStatus(await send('GET', '/api/user/logged-in-user', { address, token }), 200));
    members.push({ index, id: me._id, token, userName, address, location });
  }
  for (const member of members.slice(0, CREATORS)) {
    for (let count = 0; count < MIXES_PER_CREATOR; count += 1) {
      const genre = GENRES[(member.index + count) % GENRES.length] ?? 'house';
      const draft = await createMix(member, cover, `Soak set ${member.index}.${count}`, genre, mixAudio);
      await publish(member, draft._id);
      mixes.push({ id: draft._id, mp3: draft.mp3, cover: draft.cover, bytes: await storedBytes(draft.mp3) });
    }
  }
  // The uploads queued waveform jobs (a decode of each MP3): let them finish before measuring.
  const waitUntil = Date.now() + 300_000;
  for (const mix of mixes) {
    for (;;) {
      const data = await graphql<{ mix: { waveform: { state: string } } | null }>(
        'query ($id: ID!) { mix(id: $id) { waveform { state } } }',
        { id: mix.id },
      );
      if (data.mix?.waveform.state !== 'PENDING' || Date.now() > waitUntil) break;
      await sleep(500);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Subscriptions: graphql-ws clients, each its own socket, each following one mix's listener count.

interface Subscription {
  client: WsClient;
  mixId: string;
  closing: boolean;
}
const subscriptions: Subscription[] = [];
let pushes = 0;
/** When the last change to a mix's listeners was sent: a push's delay is measured from it (roughly: changes overlap). */
const lastListenChange = new Map<string, number>();

function openSubscription(op: string): Promise<void> {
  const member = random() < 0.5 ? pick(members) : undefined;
  const address = member?.address ?? '127.0.0.1';
  const mix = pick(mixes);
  class FromAddress extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { localAddress: address });
    }
  }
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (error?: Failure) => {
      if (settled) return;
      settled = true;
      statsOf(op).ms.push(performance.now() - started);
      if (error) fail(op, error.status, error.detail);
      resolve();
    };
    const subscription: Subscription = {
      mixId: mix.id,
      closing: false,
      client: createClient({
        url: `${base.replace('http', 'ws')}/graphql`,
        webSocketImpl: FromAddress,
        lazy: false,
        retryAttempts: 0,
        connectionParams: member ? { authorization: `Bearer ${member.token}` } : {},
        on: {
          connected: () => settle(),
          closed: (event) => {
            if (subscription.closing) return;
            const { code, reason } = event as { code?: number; reason?: string };
            if (!settled) settle(new Failure(`ws close ${code}`, String(reason)));
            else fail('subscription held open', `ws close ${code}`, String(reason));
            const at = subscriptions.indexOf(subscription);
            if (at !== -1) subscriptions.splice(at, 1);
          },
          error: (error) => {
            if (!settled) settle(new Failure('ws error', (error as Error).message ?? String(error)));
          },
        },
      }),
    };
    subscriptions.push(subscription);
    subscription.client.subscribe(
      { query: 'subscription ($mixId: ID!) { mixListenerCount(mixId: $mixId) }', variables: { mixId: mix.id } },
      {
        next: (result) => {
          if (result.errors?.length) {
            fail('subscription push', 'graphql error', JSON.stringify(result.errors));
            return;
          }
          pushes += 1;
          const changed = lastListenChange.get(mix.id);
          if (changed !== undefined) statsOf('push: listen change -> subscriber (approx.)').ms.push(performance.now() - changed);
        },
        // A closed socket is reported by the client's `closed` above; here only errors the server sent for the operation.
        error: (error) => {
          if (!subscription.closing && Array.isArray(error))
            fail('subscription held open', 'subscription error', JSON.stringify(error).slice(0, 400));
        },
        complete: () => {
          if (!subscription.closing) fail('subscription held open', 'completed by server', 'the server completed the subscription');
        },
      },
    );
    setTimeout(() => settle(new Failure('timeout', 'no connection_ack within 10 s')), 10_000).unref();
  });
}

async function closeSubscription(subscription: Subscription): Promise<void> {
  subscription.closing = true;
  const at = subscriptions.indexOf(subscription);
  if (at !== -1) subscriptions.splice(at, 1);
  await subscription.client.dispose();
}

// ---------------------------------------------------------------------------------------------------------------
// The operations, and how often each comes (weights: shares of BENCH_SOAK_RATE).

const FEED_QUERY = `query Feed($genre: Genre!, $radiusKm: Float!, $from: LocationInput, $first: Int!, $after: String) {
  feed(genre: $genre, radiusKm: $radiusKm, from: $from, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node {
      id title genre coverUrl audioUrl createdAt publishedAt isNewUpload expiringIn isExpired distanceKm isOwner savedByMe
      location { latitude longitude }
      owner { id userName displayName imageUrl }
      tracks(first: 4) { position track { id title creators { name } label { name } coverUrl } }
    } }
  }
}`;
const MIX_QUERY = `query MixPage($id: ID!) {
  mix(id: $id) {
    id title genre coverUrl audioUrl publishedAt distanceKm isOwner savedByMe durationSeconds
    owner { id userName displayName imageUrl isFollowing }
    waveform { state peaks }
    tracks(first: 30) { position track { id title creators { name } } }
  }
}`;

interface Listen {
  member: Member;
  mix: Mix;
  startedAt: number;
  pauseAfterMs: number;
  busy: boolean;
}
const listens = new Map<string, Listen>();
const feedCursors = new Map<string, string>();
let uploads = 0;
let cover: Buffer = Buffer.alloc(0);
let smallMp3: Buffer = Buffer.alloc(0);

const someoneElse = (member: Member) => {
  const others = members.filter((other) => other !== member);
  return pick(others);
};

async function listenStart(): Promise<void> {
  const member = pick(members);
  const mix = pick(mixes);
  const key = `${member.index}:${mix.id}`;
  if (listens.has(key)) return heartbeat(false);
  const listen: Listen = { member, mix, startedAt: 0, pauseAfterMs: 20_000 + random() * 100_000, busy: true };
  listens.set(key, listen);
  await timed('play (REST)', async () =>
    expectStatus(await send('POST', `/api/mix/play/${mix.id}`, { address: member.address, token: member.token }), 200),
  );
  lastListenChange.set(mix.id, performance.now());
  const started = await timed('add-new-listen (REST)', async () =>
    expectStatus(await send('POST', `/api/mix/add-new-listen/${mix.id}`, { address: member.address, token: member.token, json: {} }), 200),
  );
  if (!started) {
    listens.delete(key);
    return;
  }
  listen.startedAt = performance.now();
  listen.busy = false;
}

async function heartbeat(orStart = true): Promise<void> {
  const open = [...listens.values()].filter((listen) => !listen.busy);
  if (open.length === 0) return orStart ? listenStart() : undefined;
  const listen = pick(open);
  const position = Math.floor((performance.now() - listen.startedAt) / 100) / 10;
  await timed('heartbeat: saveCurrentMix (GraphQL)', () =>
    graphql(
      'mutation ($mixId: ID, $position: Float!) { saveCurrentMix(mixId: $mixId, position: $position) { id } }',
      { mixId: listen.mix.id, position },
      listen.member,
    ),
  );
}

async function listenPause(): Promise<void> {
  const now = performance.now();
  const due = [...listens.values()].filter((listen) => !listen.busy && now - listen.startedAt >= listen.pauseAfterMs);
  if (due.length === 0) return heartbeat(false);
  const listen = pick(due);
  listen.busy = true;
  lastListenChange.set(listen.mix.id, performance.now());
  await timed('pause-listen (REST)', async () =>
    expectStatus(
      await send('POST', `/api/mix/pause-listen/${listen.mix.id}`, {
        address: listen.member.address,
        token: listen.member.token,
        json: {},
      }),
      200,
    ),
  );
  listens.delete(`${listen.member.index}:${listen.mix.id}`);
}

const saved = new Set<string>();
async function saveToggle(): Promise<void> {
  const member = pick(members);
  const mix = pick(mixes);
  const key = `${member.index}:${mix.id}`;
  const saving = !saved.has(key);
  if (saving) saved.add(key);
  else saved.delete(key);
  await timed(saving ? 'save-mix (REST)' : 'remove-saved-mix (REST)', async () =>
    expectStatus(
      await send('POST', `/api/user/${saving ? 'save-mix' : 'remove-saved-mix'}/${mix.id}`, {
        address: member.address,
        token: member.token,
      }),
      200,
    ),
  );
}

async function followToggle(): Promise<void> {
  const member = pick(members);
  const other = someoneElse(member);
  if (random() < 0.5) {
    await timed('follow toggle (REST GET)', async () =>
      expectStatus(await send('GET', `/api/user/follow/${other.id}`, { address: member.address, token: member.token }), 200),
    );
  } else {
    await timed('follow toggle (GraphQL)', () => graphql('mutation ($id: ID!) { toggleFollow(userId: $id) }', { id: other.id }, member));
  }
}

async function feedRest(): Promise<void> {
  const member = random() < 0.6 ? pick(members) : undefined;
  const body: Record<string, unknown> = { genre: pick(FEED_GENRES), search_radius: pick(RADII), page: random() < 0.2 ? 1 : 0, limit: 10 };
  if (!member || random() < 0.3) body.from_point = pick(CITIES);
  await timed('feed page (REST)', async () =>
    expectStatus(
      await send('POST', '/api/mix/get-mixes-by-genre-and-distance', { address: member?.address, token: member?.token, json: body }),
      200,
    ),
  );
}

async function feedGraphql(): Promise<void> {
  const member = random() < 0.6 ? pick(members) : undefined;
  const genre = pick(FEED_GENRES).toUpperCase();
  const radiusKm = pick(RADII);
  const from = !member || random() < 0.3 ? pick(CITIES) : null;
  const key = `${genre}:${radiusKm}:${from ? `${from.latitude}` : '-'}`;
  const after = random() < 0.25 ? (feedCursors.get(key) ?? null) : null;
  const data = await timed(after ? 'feed next page (GraphQL)' : 'feed page (GraphQL)', () =>
    graphql<{ feed: { pageInfo: { hasNextPage: boolean; endCursor: string | null } } }>(
      FEED_QUERY,
      { genre, radiusKm, from, first: 10, after },
      member,
    ),
  );
  if (data && !after) {
    if (data.feed.pageInfo.hasNextPage && data.feed.pageInfo.endCursor) feedCursors.set(key, data.feed.pageInfo.endCursor);
    else feedCursors.delete(key);
  }
}

async function mixPage(): Promise<void> {
  const member = random() < 0.6 ? pick(members) : undefined;
  const mix = pick(mixes);
  if (random() < 0.5) {
    await timed('mix page (GraphQL)', () => graphql(MIX_QUERY, { id: mix.id }, member));
  } else {
    await timed('mix page (REST public)', async () => expectStatus(await send('GET', `/api/mix/public/${mix.id}`), 200));
  }
}

async function mediaRange(): Promise<void> {
  const mix = pick(mixes);
  const start = Math.floor(random() * Math.max(1, mix.bytes - RANGE_BYTES));
  const end = Math.min(mix.bytes, start + RANGE_BYTES) - 1;
  await timed('media Range 64 KB (/media)', async () => {
    const answer = expectStatus(await send('GET', mix.mp3, { headers: { range: `bytes=${start}-${end}` } }), 206);
    if (answer.body.length !== end - start + 1) throw new Failure('short body', `${answer.body.length} bytes for ${start}-${end}`);
  });
}

async function mediaCover(): Promise<void> {
  const mix = pick(mixes);
  await timed('media cover (/media)', async () => expectStatus(await send('GET', mix.cover), 200));
}

async function mixStats(): Promise<void> {
  const mix = pick(mixes);
  await timed('mix stats (REST)', async () => expectStatus(await send('GET', `/api/mix/stats/${mix.id}`), 200));
}

async function profile(): Promise<void> {
  const member = pick(members);
  const viewer = pick(members);
  await timed('profile + mixes by member (REST)', async () => {
    const options = { address: viewer.address, token: viewer.token };
    expectStatus(await send('GET', `/api/user/by-user-name/${member.userName}`, options), 200);
    expectStatus(await send('GET', `/api/mix/by-user/${member.userName}/0`, options), 200);
  });
}

async function loggedIn(): Promise<void> {
  const member = pick(members);
  await timed('logged-in-user (REST)', async () =>
    expectStatus(await send('GET', '/api/user/logged-in-user', { address: member.address, token: member.token }), 200),
  );
}

async function savedList(): Promise<void> {
  const member = pick(members);
  await timed('saved mixes (REST)', async () =>
    expectStatus(await send('GET', '/api/user/saved-mixes-by-me', { address: member.address, token: member.token }), 200),
  );
}

async function subscriptionChurn(): Promise<void> {
  const old = subscriptions.length >= SUBSCRIPTIONS ? pick(subscriptions) : undefined;
  if (old) await closeSubscription(old);
  await openSubscription('subscription: connect + subscribe (graphql-ws)');
}

async function upload(): Promise<void> {
  uploads += 1;
  const member = pick(members);
  const genre = pick(GENRES);
  const title = `Soak upload ${uploads}`;
  const viaTus = uploads % 2 === 0;
  const draft = viaTus
    ? await timed('upload: tus POST + PATCH + create-mix (80 KB)', async () =>
        createMix(member, cover, title, genre, await tusUpload(member, smallMp3)),
      )
    : await timed('upload: create-mix multipart (80 KB)', () => createMix(member, cover, title, genre, smallMp3));
  if (!draft || uploads % 4 >= 2) return;
  await publish(member, draft._id, (name) => `upload: ${name}`);
  const bytes = await storedBytes(draft.mp3).catch(() => 0);
  if (bytes > 0) mixes.push({ id: draft._id, mp3: draft.mp3, cover: draft.cover, bytes });
}

const ALL_OPERATIONS: [number, string, () => Promise<void>][] = [
  [5, 'feed-rest', feedRest],
  [5, 'feed-graphql', feedGraphql],
  [2.5, 'mix-page', mixPage],
  [1.2, 'listen-start', listenStart], // two requests: play, add-new-listen
  [3, 'heartbeat', heartbeat],
  [1.2, 'listen-pause', listenPause],
  [2, 'save', saveToggle],
  [2, 'follow', followToggle],
  [11, 'range', mediaRange],
  [1, 'cover', mediaCover],
  [1, 'stats', mixStats],
  [0.7, 'profile', profile], // two requests
  [1, 'logged-in', loggedIn],
  [0.5, 'saved-list', savedList],
  [0.3, 'subscriptions', subscriptionChurn],
  [0.1, 'upload', upload],
];
/** BENCH_SOAK_WITHOUT=follow,upload leaves operations out (say, one known to wedge the server until it is fixed). */
const WITHOUT = (process.env.BENCH_SOAK_WITHOUT ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const OPERATIONS = ALL_OPERATIONS.filter(([, name]) => !WITHOUT.includes(name));
const TOTAL_WEIGHT = OPERATIONS.reduce((sum, [weight]) => sum + weight, 0);
function chooseOperation(): () => Promise<void> {
  let at = random() * TOTAL_WEIGHT;
  for (const [weight, , operation] of OPERATIONS) {
    at -= weight;
    if (at < 0) return operation;
  }
  return OPERATIONS[0]?.[2] ?? feedRest;
}

// ---------------------------------------------------------------------------------------------------------------

interface Sample {
  atSeconds: number;
  rss: number;
  load: number;
  /** Share of the last 10 s some task waited for a CPU (Linux pressure stall information), in %. */
  cpuPressure: number;
}

/** /proc/pressure/cpu's "some avg10": how starved of CPU the machine is (NaN where the kernel does not say). */
function cpuPressure(): number {
  try {
    return Number(/avg10=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'))?.[1]);
  } catch {
    return Number.NaN;
  }
}

/**
 * When requests pile up (more than a few seconds of traffic in flight), what the server's database connections are
 * doing: a stall in PostgreSQL (locks, I/O) or a pool held by something that never lets go, told apart from slow CPU.
 */
async function databaseSnapshot(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{
      state: string;
      wait: string;
      count: number;
      oldest_xact: number;
      oldest_query: number;
      query: string;
    }>(
      `select coalesce(state, '?') as state, coalesce(wait_event_type || ':' || wait_event, '-') as wait, count(*)::int as count,
              round(extract(epoch from max(now() - xact_start))::numeric, 1)::float8 as oldest_xact,
              round(extract(epoch from max(now() - query_start))::numeric, 1)::float8 as oldest_query,
              left(regexp_replace(min(query), '[[:space:]]+', ' ', 'g'), 160) as query
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
        group by 1, 2 order by 3 desc`,
    );
    return rows
      .map(
        (row) =>
          `${row.count} ${row.state} (${row.wait}; oldest transaction ${row.oldest_xact ?? '-'} s, query ${row.oldest_query ?? '-'} s: ${row.query})`,
      )
      .join('; ');
  } finally {
    await client.end();
  }
}

/** CPU time (user + system) of a process so far, in seconds. */
const TICKS = 100;
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

async function main(): Promise<void> {
  let database: BenchDatabase | undefined;
  let failed = true;
  try {
    database = await benchDatabase();
    const db = database;
    cleanups.push(() => db.close());
    const api = await startApi(database.url);
    // Runs before the API is stopped: its open sockets would only make it wait.
    cleanups.push(async () => {
      await Promise.all([...subscriptions].map((subscription) => closeSubscription(subscription).catch(() => undefined)));
      for (const agent of agents.values()) agent.destroy();
    });
    out(
      `soak: ${SECONDS} s at ${RATE} operations/s (open loop), ${MEMBERS} members, ${SUBSCRIPTIONS} subscriptions held open, warm-up ${WARMUP} s; ` +
        `API pid ${api.pid} on ${base}; ${availableParallelism()} CPUs, load average ${loads()}`,
    );
    if (WITHOUT.length > 0) out(`left out (BENCH_SOAK_WITHOUT): ${WITHOUT.join(', ')}`);
    cover = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#2a6' } })
      .jpeg()
      .toBuffer();
    smallMp3 = mp3Frames(10, 64);
    const frames = mp3Frames(20, 128);
    const mixAudio = Buffer.concat(Array.from({ length: 9 }, () => frames)); // 3 minutes
    const seeded = performance.now();
    await seed(cover, mixAudio);
    out(
      `seeded ${members.length} members, ${mixes.length} published mixes of ${(mixAudio.length / MB).toFixed(1)} MB in ${((performance.now() - seeded) / 1000).toFixed(0)} s; load average ${loads()}`,
    );
    for (let index = 0; index < SUBSCRIPTIONS; index += 1) await openSubscription('subscription: connect + subscribe (graphql-ws)');

    // The load: one operation every 1/RATE s from the start, each sent when due (open loop), none waited for.
    const samples: Sample[] = [];
    const stalls: string[] = [];
    const databaseUrl = database.url;
    const requests = new Set<Promise<void>>();
    const lags: number[] = [];
    loadStartedAt = performance.now();
    loadRunning = true;
    const cpuAtStart = cpuSeconds(api.pid);
    const sample = async () => {
      if (api.exited) return;
      const { rss } = await rssOf(api.pid);
      samples.push({ atSeconds: elapsedSeconds(), rss, load: loadavg()[0], cpuPressure: cpuPressure() });
      if (requests.size > RATE * 3 && stalls.length < 6) {
        const inFlight = requests.size;
        const at = elapsedSeconds();
        const snapshot = await databaseSnapshot(databaseUrl).catch((error) => `(no snapshot: ${(error as Error).message})`);
        stalls.push(
          `at ${at.toFixed(0)} s, ${inFlight} operations in flight, server CPU ${(((cpuSeconds(api.pid) - cpuAtStart) / at) * 100).toFixed(0)}% of a core so far, load average ${load1()}, CPU pressure ${cpuPressure()}%: ${snapshot}`,
        );
      }
    };
    await sample();
    const sampler = setInterval(() => void sample().catch(() => undefined), RSS_EVERY_MS);
    const progressEvery = Math.max(10, Math.round(SECONDS / 10));
    let nextProgress = progressEvery;
    const endAt = loadStartedAt + SECONDS * 1000;
    let sent = 0;
    let sendingSeconds = 0;
    try {
      for (;;) {
        const due = loadStartedAt + (sent * 1000) / RATE;
        if (due >= endAt || interrupted) break;
        if (api.exited) {
          fail('API process', 'exited', `the API exited during the run; see the log below`);
          break;
        }
        if (performance.now() - Math.max(lastAnswerAt, loadStartedAt) > WEDGED_SECONDS * 1000) {
          fail(
            'API process',
            'wedged',
            `no operation but /media succeeded for ${WEDGED_SECONDS} s: the load stops (see the database snapshots)`,
          );
          break;
        }
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        lags.push(Math.max(0, performance.now() - due));
        const running: Promise<void> = chooseOperation()()
          .catch((error) => fail('bench', 'exception', (error as Error).stack ?? String(error)))
          .finally(() => requests.delete(running));
        requests.add(running);
        sent += 1;
        if (elapsedSeconds() >= nextProgress) {
          nextProgress += progressEvery;
          const errors = [...stats.values()].reduce((sum, entry) => sum + entry.errors, 0);
          const last = samples.at(-1);
          out(
            `  [${elapsedSeconds().toFixed(0).padStart(4)} s] ${sent} operations, ${requests.size} in flight, ${errors} errors, ` +
              `RSS ${last ? (last.rss / MB).toFixed(1) : '?'} MB, ${subscriptions.length} subscriptions, ${pushes} pushes; load average ${loads()}`,
          );
        }
      }
      sendingSeconds = elapsedSeconds();
      await Promise.race([Promise.allSettled([...requests]), sleep(REQUEST_TIMEOUT_MS + 5000)]);
    } finally {
      clearInterval(sampler);
    }
    loadRunning = false;
    const loadSeconds = elapsedSeconds();
    await sample().catch(() => undefined);
    const cpuUsed = api.exited ? Number.NaN : cpuSeconds(api.pid) - cpuAtStart;
    const loadAtEnd = loads();
    // After 15 s with no traffic (subscriptions still open): what the server holds once the work has drained.
    if (!interrupted) await sleep(15_000);
    const idle = api.exited ? undefined : await rssOf(api.pid);
    const loadIdle = load1();
    for (const subscription of [...subscriptions]) await closeSubscription(subscription);

    // ----- the figures
    out();
    out(`| operation | count | errors | p50 ms | p99 ms | max ms |  (${loadSeconds.toFixed(0)} s, load average ${loadAtEnd} at the end)`);
    out('|---|---|---|---|---|---|');
    const all: number[] = [];
    let errorTotal = 0;
    let countTotal = 0;
    const rows = [...stats.entries()].sort(([a], [b]) => a.localeCompare(b));
    for (const [op, entry] of rows) {
      const sorted = [...entry.ms].sort((a, b) => a - b);
      const isPush = op.startsWith('push:');
      if (!isPush) {
        all.push(...sorted);
        errorTotal += entry.errors;
        countTotal += entry.ms.length;
      }
      out(
        `| ${op} | ${sorted.length} | ${entry.errors} | ${percentile(sorted, 0.5).toFixed(1)} | ${percentile(sorted, 0.99).toFixed(1)} | ${(sorted.at(-1) ?? Number.NaN).toFixed(1)} |`,
      );
    }
    all.sort((a, b) => a - b);
    out(
      `| **overall** | ${countTotal} | ${errorTotal} | ${percentile(all, 0.5).toFixed(1)} | ${percentile(all, 0.99).toFixed(1)} | ${(all.at(-1) ?? Number.NaN).toFixed(1)} |`,
    );
    lags.sort((a, b) => a - b);
    out();
    out(
      `sent ${sent} operations in ${sendingSeconds.toFixed(0)} s (${(sent / sendingSeconds).toFixed(1)}/s, target ${RATE}/s), the last answered at ${loadSeconds.toFixed(0)} s; ` +
        `sending lag p99 ${percentile(lags, 0.99).toFixed(1)} ms, max ${(lags.at(-1) ?? 0).toFixed(1)} ms; ${pushes} subscription pushes; ` +
        `${uploads} uploads; ${mixes.length} published mixes at the end`,
    );
    out(
      `server CPU: ${cpuUsed.toFixed(0)} s over ${loadSeconds.toFixed(0)} s (${((cpuUsed / loadSeconds) * 100).toFixed(0)}% of one core)`,
    );
    const spread = (values: number[]) =>
      `min ${Math.min(...values).toFixed(2)}, mean ${(values.reduce((a, b) => a + b, 0) / values.length).toFixed(2)}, max ${Math.max(...values).toFixed(2)}`;
    out(
      `load average (1 min) during the run: ${spread(samples.map((entry) => entry.load))}; CPU pressure (some, avg10 %): ${spread(samples.map((entry) => entry.cpuPressure))}`,
    );
    if (stalls.length > 0) {
      out(
        `requests piled up (more than ${RATE * 3} in flight) ${stalls.length === 6 ? 'at least ' : ''}${stalls.length} times; the database then:`,
      );
      for (const stall of stalls) out(`    ${stall}`);
    }

    const first = samples[0];
    const warm = samples.find((entry) => entry.atSeconds >= WARMUP) ?? samples.at(-1);
    const last = samples.at(-1);
    let growth = Number.NaN;
    if (first && warm && last) {
      growth = (last.rss - warm.rss) / warm.rss;
      const after = samples.filter((entry) => entry.atSeconds >= warm.atSeconds);
      // Least squares over the samples after warm-up: a leak climbs steadily, noise does not.
      const meanT = after.reduce((sum, entry) => sum + entry.atSeconds, 0) / after.length;
      const meanR = after.reduce((sum, entry) => sum + entry.rss, 0) / after.length;
      const slope =
        after.reduce((sum, entry) => sum + (entry.atSeconds - meanT) * (entry.rss - meanR), 0) /
        Math.max(
          1e-9,
          after.reduce((sum, entry) => sum + (entry.atSeconds - meanT) ** 2, 0),
        );
      const peak = Math.max(...after.map((entry) => entry.rss));
      out();
      out(`server RSS at the start of the load: ${(first.rss / MB).toFixed(1)} MB (load average ${first.load.toFixed(2)})`);
      out(
        `server RSS after warm-up (${warm.atSeconds.toFixed(0)} s): ${(warm.rss / MB).toFixed(1)} MB (load average ${warm.load.toFixed(2)})`,
      );
      out(
        `server RSS at the end (${last.atSeconds.toFixed(0)} s): ${(last.rss / MB).toFixed(1)} MB (load average ${last.load.toFixed(2)})`,
      );
      out(
        `growth after warm-up: ${(growth * 100).toFixed(1)}% (target < ${TARGET_GROWTH * 100}%): ${growth < TARGET_GROWTH ? 'met' : 'MISSED'}; ` +
          `peak ${(peak / MB).toFixed(1)} MB; trend ${((slope * 60) / MB).toFixed(2)} MB/min over ${after.length} samples`,
      );
      // RSS saws up and down with garbage collection: the median of a window after warm-up against one at the end.
      const window = Math.max(RSS_EVERY_MS / 1000, Math.min(60, (last.atSeconds - warm.atSeconds) / 3));
      const median = (from: number, to: number) => {
        const values = after
          .filter((entry) => entry.atSeconds >= from && entry.atSeconds <= to)
          .map((entry) => entry.rss)
          .sort((a, b) => a - b);
        return values[Math.floor(values.length / 2)] ?? Number.NaN;
      };
      const early = median(warm.atSeconds, warm.atSeconds + window);
      const late = median(last.atSeconds - window, last.atSeconds);
      out(
        `median RSS over ${window.toFixed(0)} s windows: ${(early / MB).toFixed(1)} MB after warm-up, ${(late / MB).toFixed(1)} MB at the end: ` +
          `${(((late - early) / early) * 100).toFixed(1)}%`,
      );
      if (idle) out(`server RSS 15 s after the load stopped: ${(idle.rss / MB).toFixed(1)} MB (load average ${loadIdle})`);
      out(
        `RSS samples (MB, every ${RSS_EVERY_MS / 1000} s): ${samples
          .filter((_, index) => index % Math.max(1, Math.round(samples.length / 24)) === 0)
          .map((entry) => `${entry.atSeconds.toFixed(0)}s ${(entry.rss / MB).toFixed(0)}`)
          .join(', ')}`,
      );
    }

    out();
    if (failures.size === 0) out(`errors: none (target 0): met`);
    else {
      out(`errors: ${errorTotal} (target 0): MISSED`);
      for (const [key, entry] of failures) {
        out(`- ${key}: ${entry.count}`);
        for (const failure of entry.samples) out(`    at ${failure.atSeconds.toFixed(1)} s: ${failure.detail.replace(/\s+/g, ' ')}`);
      }
    }
    await printServerLog(api.logPath);
    failed = errorTotal > 0 || !(growth < TARGET_GROWTH);
  } catch (error) {
    out(`soak failed: ${(error as Error).stack ?? String(error)}`);
    if (apiLog) await printServerLog(apiLog);
  } finally {
    await cleanUp();
  }
  process.exitCode = interrupted ? 130 : failed ? 1 : 0;
}

await main();
