/**
 * Realtime fan-out. The API runs in its own process (events through PostgreSQL LISTEN/NOTIFY, or Redis with
 * BENCH_REALTIME_REDIS_URL); this process holds every socket, speaking graphql-ws (graphql-transport-ws) over `ws`.
 *
 * 1. 1,000 sockets watch one mix's `mixListenerCount` while 50 listeners start, heartbeat and pause (one request every
 *    BENCH_REALTIME_INTERVAL_MS, each start and pause changes the count): delivery latency from each request's
 *    response to each subscriber's message, p50 / p95 / p99.
 * 2. 1,000 members each watch their own `followEvents` while fans follow them (one follow every interval, each to a
 *    different member) and the 50 listeners go on starting, heartbeating and pausing: latency from the follow's
 *    response to the followed member's message.
 * 3. Server RSS per 1,000 idle sockets (each connected, signed in or not, with one subscription).
 * 4. Count subscribers in steps of BENCH_REALTIME_STEPS, held by BENCH_REALTIME_CLIENT_PROCESSES (4) forked processes
 *    (bench/realtime-clients.ts): at each step the server's RSS per idle socket, then BENCH_REALTIME_STEP_CHANGES (10)
 *    count changes BENCH_REALTIME_STEP_GAP_MS (500) apart, each one's delivery p50 / p95 / p99 to every socket, and the
 *    server's CPU per delivered message. The open-file limit here (20,000, hard) caps the server below 20,000 sockets.
 * Targets: p99 < 250 ms at 1,000 subscribers; < 100 KB of RSS per idle socket; p99 < 250 ms at 20,000.
 */

import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import WebSocket from 'ws';
import { TokenService } from '../api/src/modules/auth/tokens.js';
import { benchDatabase, MB, out, ROOT, rssOf } from './support.js';

const SUBSCRIBERS = Number(process.env.BENCH_REALTIME_SUBSCRIBERS ?? 1000);
const LISTENERS = 50;
const INTERVAL_MS = Number(process.env.BENCH_REALTIME_INTERVAL_MS ?? 50);
const FOLLOWS = Number(process.env.BENCH_REALTIME_FOLLOWS ?? 300);
const STEPS = (process.env.BENCH_REALTIME_STEPS ?? '2000,4000,8000,12000,16000,19000').split(',').filter(Boolean).map(Number);
const CLIENT_PROCESSES = Number(process.env.BENCH_REALTIME_CLIENT_PROCESSES ?? 4);
const STEP_CHANGES = Number(process.env.BENCH_REALTIME_STEP_CHANGES ?? 10);
const STEP_GAP_MS = Number(process.env.BENCH_REALTIME_STEP_GAP_MS ?? 500);
const STEPS_ONLY = process.env.BENCH_REALTIME_STEPS_ONLY === '1';
const TARGET_P99_MS = 250;
const TARGET_BYTES_PER_SOCKET = 100 * 1024;
const JWT_SECRET = 'bench-realtime-secret-bench-realtime-secret';
const DELIVERY_TIMEOUT_MS = 10_000;

const COUNT = 'subscription ($id: ID!) { mixListenerCount(mixId: $id) }';
const FOLLOW_EVENTS = 'subscription { followEvents { kind unreadCount follower { userName displayName imageUrl userType distanceKm } } }';

interface Server {
  base: string;
  ws: string;
  pid: number;
  stop(): Promise<void>;
}

/** BENCH_REALTIME_SERVER_ROOT=DIR runs another checkout's server (an earlier commit) under the same load, to compare. */
const SERVER_ROOT = process.env.BENCH_REALTIME_SERVER_ROOT ?? ROOT;

async function startServer(databaseUrl: string): Promise<Server> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-bench-realtime-'));
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, '--import', 'tsx', join(SERVER_ROOT, 'bench/realtime-server.ts')], {
    cwd: SERVER_ROOT,
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: join(SERVER_ROOT, 'api/tsconfig.json'),
      BENCH_REALTIME_DATABASE_URL: databaseUrl,
      BENCH_REALTIME_DATA_DIR: dataDir,
      BENCH_REALTIME_JWT_SECRET: JWT_SECRET,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout ?? process.stdin }), 'line')) as [string];
  const { port } = JSON.parse(line) as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}/graphql`,
    pid: child.pid ?? 0,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Members straight into the database (a bcrypt sign-up each would take minutes), each with a session and its token
 * signed by the server's key.
 */
async function createMembers(db: pg.Client, tokens: TokenService, count: number, prefix: string) {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 500) {
    const size = Math.min(500, count - start);
    const { rows } = await db.query<{ id: string }>(
      `insert into app_user (id, email, password_hash, user_name, display_name, user_type, latitude, longitude, created_at, updated_at)
       select gen_random_uuid(), $1 || i || '@bench.example', 'x', $1 || i, 'Bench ' || i, 'listener',
              40 + random() * 15, -5 + random() * 25, now(), now()
         from generate_series($2::int, $3::int) i
       returning id`,
      [`${prefix}${randomBytes(3).toString('hex')}_`, start, start + size - 1],
    );
    ids.push(...rows.map((row) => row.id));
  }
  const expiresAt = new Date(Date.now() + 24 * 60 * 60 * 1000);
  const { rows: sessions } = await db.query<{ id: string; user_id: string }>(
    `insert into member_session (id, user_id, created_at, last_seen_at, expires_at)
     select gen_random_uuid(), user_id, now(), now(), $2 from unnest($1::uuid[]) as user_id
     returning id, user_id`,
    [ids, expiresAt],
  );
  return Promise.all(
    sessions.map(async (session) => ({
      id: session.user_id,
      token: await tokens.sign({ id: session.user_id, sessionId: session.id }, expiresAt),
    })),
  );
}

/** Subscriptions the server ended or refused (each counted, the first few printed). */
const subscriptionErrors: string[] = [];

interface Subscriber {
  socket: WebSocket;
  /** Every message's payload and when it arrived. */
  messages: { data: Record<string, unknown> | undefined; at: number }[];
  /** Resolves with the first message (a count subscription sends the current count first). */
  first: Promise<void>;
}

/** One graphql-ws socket with one subscription: resolves once the server acknowledged it and took the subscription. */
function subscribe(url: string, query: string, variables: Record<string, unknown>, params: Record<string, unknown>): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, 'graphql-transport-ws');
    let firstMessage: () => void = () => undefined;
    const subscriber: Subscriber = { socket, messages: [], first: new Promise((done) => (firstMessage = done)) };
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: params })));
    socket.on('error', reject);
    socket.on('close', (code) => reject(new Error(`socket closed with ${code}`)));
    socket.on('message', (raw) => {
      const at = performance.now();
      const message = JSON.parse(raw.toString()) as { type: string; payload?: { data?: Record<string, unknown> } };
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables } }));
        resolve(subscriber);
      } else if (message.type === 'next') {
        subscriber.messages.push({ data: message.payload?.data, at });
        firstMessage();
      } else if (message.type === 'error' || message.type === 'complete') {
        subscriptionErrors.push(JSON.stringify(message.payload ?? message.type));
        firstMessage();
      } else if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
    });
  });
}

async function subscribeMany(count: number, open: (index: number) => Promise<Subscriber>): Promise<Subscriber[]> {
  const subscribers: Subscriber[] = [];
  for (let start = 0; start < count; start += 200) {
    subscribers.push(...(await Promise.all(Array.from({ length: Math.min(200, count - start) }, (_, i) => open(start + i)))));
  }
  return subscribers;
}

async function closeAll(subscribers: Subscriber[]): Promise<void> {
  await Promise.all(
    subscribers.map(
      (subscriber) =>
        new Promise<void>((resolve) => {
          subscriber.socket.removeAllListeners('close');
          // A socket the server already closed (say, it missed a keep-alive ping while this process was busy) is done.
          if (subscriber.socket.readyState === WebSocket.CLOSED) return resolve();
          subscriber.socket.once('close', () => resolve());
          subscriber.socket.close();
        }),
    ),
  );
}

/** CPU time a process has used so far (user + system), in ms, from /proc (clock ticks of 10 ms). */
async function cpuMsOf(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

function summarise(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), samples: sorted.length };
}

async function post(server: Server, path: string, token: string): Promise<{ status: number; at: number }> {
  const response = await fetch(`${server.base}${path}`, { method: 'POST', headers: { 'x-auth-token': token } });
  await response.arrayBuffer();
  return { status: response.status, at: performance.now() };
}

/**
 * The 50 listeners' day: each starts, heartbeats and pauses. One request every interval; `onChange` hears each request
 * that changed the count (a start or a pause) with the count it made and when its response came.
 */
async function listenersPlay(
  server: Server,
  mixId: string,
  listeners: { token: string }[],
  onChange?: (count: number, respondedAt: number) => void,
): Promise<void> {
  let live = 0;
  const step = async (path: string, token: string, change: number) => {
    const started = performance.now();
    const { status, at } = await post(server, `${path}/${mixId}`, token);
    if (status !== 200) throw new Error(`${path} answered ${status}`);
    live += change;
    if (change !== 0) onChange?.(live, at);
    await sleep(Math.max(0, INTERVAL_MS - (performance.now() - started)));
  };
  for (const [index, listener] of listeners.entries()) {
    await step('/api/mix/add-new-listen', listener.token, 1);
    if (index > 0) await step('/api/mix/heartbeat-listen', listeners[index - 1].token, 0);
  }
  for (const [index, listener] of listeners.entries()) {
    await step('/api/mix/pause-listen', listener.token, -1);
    const next = listeners[index + 1];
    if (next) await step('/api/mix/heartbeat-listen', next.token, 0);
  }
}

/** Each subscriber's latency to each change: the first message after the previous one matched that carries the count. */
async function countLatencies(server: Server, mixId: string, subscribers: Subscriber[], listeners: { token: string }[]) {
  const changes: { count: number; at: number }[] = [];
  for (const subscriber of subscribers) subscriber.messages.length = 0;
  await listenersPlay(server, mixId, listeners, (count, at) => changes.push({ count, at }));
  const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
  while (performance.now() < deadline && subscribers.some((subscriber) => subscriber.messages.length < changes.length)) await sleep(50);
  const latencies: number[] = [];
  let missed = 0;
  for (const subscriber of subscribers) {
    let cursor = 0;
    for (const change of changes) {
      while (cursor < subscriber.messages.length && subscriber.messages[cursor].data?.mixListenerCount !== change.count) cursor += 1;
      const message = subscriber.messages[cursor];
      if (!message) {
        missed += 1;
        continue;
      }
      // A message may beat the response to the request that caused it (the event leaves before the answer): 0 ms.
      latencies.push(Math.max(0, message.at - change.at));
      cursor += 1;
    }
  }
  return { ...summarise(latencies), missed, changes: changes.length };
}

interface Step {
  subscribers: number;
  p50: number;
  p95: number;
  p99: number;
  missed: number;
  cpuMicrosPerMessage: number;
  /** Server CPU from the first change to the last message, over the changes: one change's cost to every socket. */
  cpuMsPerChange: number;
  bytesPerSocket: number;
}

interface ClientProcess {
  ask<T>(message: unknown, answer: (reply: T) => boolean): Promise<T>;
}

function clientProcess(): ClientProcess {
  const child = fork(join(ROOT, 'bench/realtime-clients.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, 'api/tsconfig.json') },
  });
  return {
    ask: <T>(message: unknown, answer: (reply: T) => boolean) =>
      new Promise<T>((resolve, reject) => {
        const onReply = (reply: T & { failed?: string }) => {
          if (reply.failed) reject(new Error(reply.failed));
          else if (answer(reply)) resolve(reply);
          else return;
          child.off('message', onReply);
        };
        child.on('message', onReply);
        child.send(message as object);
      }),
  };
}

const now = () => performance.timeOrigin + performance.now();

/**
 * `size` sockets on one mix's count, spread over client processes: the server's RSS per idle socket, then
 * STEP_CHANGES count changes STEP_GAP_MS apart (listeners starting, then pausing), each socket's delay to each.
 */
async function countStep(server: Server, mixId: string, size: number, listeners: { token: string }[]): Promise<Step> {
  const clients = Array.from({ length: CLIENT_PROCESSES }, clientProcess);
  const share = (index: number) => Math.floor(size / CLIENT_PROCESSES) + (index < size % CLIENT_PROCESSES ? 1 : 0);
  try {
    await sleep(500);
    const rssBefore = (await rssOf(server.pid)).rss;
    await Promise.all(
      clients.map((client, index) =>
        client.ask<{ opened: number }>({ open: { url: server.ws, sockets: share(index), mixId } }, (reply) => 'opened' in reply),
      ),
    );
    await sleep(2000);
    const bytesPerSocket = ((await rssOf(server.pid)).rss - rssBefore) / size;
    const cpuBefore = await cpuMsOf(server.pid);
    const changes: { count: number; at: number }[] = [];
    const starting = listeners.slice(0, Math.ceil(STEP_CHANGES / 2));
    const steps = [
      ...starting.map((listener, index) => ({ path: '/api/mix/add-new-listen', listener, count: index + 1 })),
      ...starting.map((listener, index) => ({ path: '/api/mix/pause-listen', listener, count: starting.length - index - 1 })),
    ].slice(0, STEP_CHANGES);
    for (const { path, listener, count } of steps) {
      const started = performance.now();
      const { status } = await post(server, `${path}/${mixId}`, listener.token);
      if (status !== 200) throw new Error(`${path} answered ${status}`);
      changes.push({ count, at: now() });
      await sleep(Math.max(0, STEP_GAP_MS - (performance.now() - started)));
    }
    // Each client waits for its sockets' messages (up to 10 s), so the server's CPU is read once all went out.
    const replies = await Promise.all(
      clients.map((client) => client.ask<{ latencies: number[]; missed: number }>({ latencies: changes }, (reply) => 'latencies' in reply)),
    );
    const cpuMs = (await cpuMsOf(server.pid)) - cpuBefore;
    const delays = replies.flatMap((reply) => reply.latencies);
    const missed = replies.reduce((sum, reply) => sum + reply.missed, 0);
    const { p50, p95, p99 } = summarise(delays);
    return {
      subscribers: size,
      p50,
      p95,
      p99,
      missed,
      cpuMicrosPerMessage: (cpuMs * 1000) / Math.max(1, delays.length),
      cpuMsPerChange: cpuMs / steps.length,
      bytesPerSocket,
    };
  } finally {
    await Promise.all(clients.map((client) => client.ask({ close: true }, (reply) => 'closed' in (reply as object))));
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const verdict = (ok: boolean) => (ok ? 'meets target' : 'MISSES target');
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

/** Stages 1 to 3: 1,000 sockets held here on one count and on their own follow events, and their memory. */
async function fanOutStages(
  server: Server,
  mix: { id: string },
  listeners: { id: string; token: string }[],
  watchers: { id: string; token: string }[],
  fans: { id: string; token: string }[],
): Promise<string[]> {
  const lines: string[] = [];
  // 3 first, on a quiet server: RSS per idle socket.
  await sleep(1000);
  const idleBefore = (await rssOf(server.pid)).rss;
  const idle = await subscribeMany(SUBSCRIBERS, (index) =>
    subscribe(server.ws, COUNT, { id: mix.id }, index % 2 === 0 ? { token: watchers[index].token } : {}),
  );
  await Promise.all(idle.map((subscriber) => subscriber.first));
  await sleep(3000);
  const idleAfter = (await rssOf(server.pid)).rss;
  const perSocket = (idleAfter - idleBefore) / SUBSCRIBERS;

  // 1: the same sockets watch the count while the listeners play.
  await countLatencies(server, mix.id, idle, listeners.slice(0, 5)); // warm-up
  const cpuBefore = await cpuMsOf(server.pid);
  const counts = await countLatencies(server, mix.id, idle, listeners);
  const countsCpuMs = (await cpuMsOf(server.pid)) - cpuBefore;
  await closeAll(idle);

  // 2: each member watches their own follow events while fans follow them and the listeners play.
  const members = await subscribeMany(SUBSCRIBERS, (index) => subscribe(server.ws, FOLLOW_EVENTS, {}, { token: watchers[index].token }));
  await sleep(1000);
  const follows: { member: number; at: number }[] = [];
  const background = listenersPlay(server, mix.id, listeners);
  for (let index = 0; index < FOLLOWS; index += 1) {
    const started = performance.now();
    const member = (index * 7919) % SUBSCRIBERS;
    const fan = fans[index % fans.length];
    const response = await fetch(`${server.base}/api/user/follow/${watchers[member].id}`, { headers: { 'x-auth-token': fan.token } });
    await response.arrayBuffer();
    follows.push({ member, at: performance.now() });
    await sleep(Math.max(0, INTERVAL_MS - (performance.now() - started)));
  }
  await background;
  const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
  const expected = new Map<number, number>();
  for (const follow of follows) expected.set(follow.member, (expected.get(follow.member) ?? 0) + 1);
  while (performance.now() < deadline && [...expected].some(([member, n]) => members[member].messages.length < n)) await sleep(50);
  const seen = new Map<number, number>();
  const followLatencies: number[] = [];
  let missedFollows = 0;
  for (const follow of follows) {
    const index = seen.get(follow.member) ?? 0;
    seen.set(follow.member, index + 1);
    const message = members[follow.member].messages[index];
    if (message) followLatencies.push(Math.max(0, message.at - follow.at));
    else missedFollows += 1;
  }
  const notifications = summarise(followLatencies);
  await closeAll(members);

  lines.push('');
  lines.push(
    `1. ${SUBSCRIBERS} sockets watching one mix's count; ${counts.changes} count changes from ${LISTENERS} listeners (start, heartbeat, pause; a request every ${INTERVAL_MS} ms)`,
  );
  lines.push(
    `   delivery latency p50 ${ms(counts.p50)}, p95 ${ms(counts.p95)}, p99 ${ms(counts.p99)} (${counts.samples} messages, ${counts.missed} missed); target p99 < ${TARGET_P99_MS} ms: ${verdict(counts.p99 < TARGET_P99_MS && counts.missed === 0)}`,
  );
  lines.push(
    `   server CPU for it: ${((countsCpuMs * 1000) / counts.samples).toFixed(1)} µs a delivered message (its requests included): one core delivers about ${Math.round(counts.samples / (countsCpuMs / 1000)).toLocaleString('en')} messages/s`,
  );
  lines.push(
    `2. ${SUBSCRIBERS} members watching their own follow events; ${follows.length} follows (one every ${INTERVAL_MS} ms) while the listeners play`,
  );
  lines.push(
    `   delivery latency p50 ${ms(notifications.p50)}, p95 ${ms(notifications.p95)}, p99 ${ms(notifications.p99)} (${notifications.samples} messages, ${missedFollows} missed); target p99 < ${TARGET_P99_MS} ms: ${verdict(notifications.p99 < TARGET_P99_MS && missedFollows === 0)}`,
  );
  lines.push(
    `3. server RSS for ${SUBSCRIBERS} idle sockets (one subscription each, half signed in): ${((idleAfter - idleBefore) / MB).toFixed(1)} MB, ${(perSocket / 1024).toFixed(1)} KB a socket (${((perSocket * 1000) / MB).toFixed(1)} MB per 1,000); target < 100 KB: ${verdict(perSocket < TARGET_BYTES_PER_SOCKET)}`,
  );
  return lines;
}

async function main() {
  out(`# realtime fan-out (${process.env.BENCH_REALTIME_REDIS_URL ? 'events through Redis' : 'events through PostgreSQL LISTEN/NOTIFY'})`);
  if (SERVER_ROOT !== ROOT) out(`server: the checkout at ${SERVER_ROOT}`);
  out(`load average at start (1 / 5 / 15 min): ${load()}`);
  const database = await benchDatabase();
  const server = await startServer(database.url);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const tokens = await TokenService.create(JWT_SECRET, tmpdir());
    const [dj] = await createMembers(db, tokens, 1, 'dj');
    const {
      rows: [mix],
    } = await db.query<{ id: string }>(
      `insert into mix (id, owner_id, title, genre, cover, mp3, audio_bytes, duration_seconds, bitrate, waveform_state,
                        status, published_at, expires_at, play_count, created_at, updated_at)
       values (gen_random_uuid(), $1, 'Bench live mix', 'techno', 'bench.jpg', 'bench.mp3', 1000000, 7200, 320, 'ready',
               'published', now() - interval '1 day', now() + interval '1 year', 0, now(), now())
       returning id`,
      [dj.id],
    );
    const listeners = await createMembers(db, tokens, LISTENERS, 'listener');
    const watchers = await createMembers(db, tokens, SUBSCRIBERS, 'watcher');
    const fans = await createMembers(db, tokens, LISTENERS, 'fan');

    // Stages 1 to 3 (BENCH_REALTIME_STEPS_ONLY=1 leaves them out), then 4.
    const firstLines = STEPS_ONLY ? [] : await fanOutStages(server, mix, listeners, watchers, fans);

    // 4: count subscribers in steps, held by other processes; each step's memory, latency and CPU per message.
    const steps: Step[] = [];
    for (const size of STEPS) {
      const step = await countStep(server, mix.id, size, listeners);
      steps.push(step);
      out(
        `   step: ${size} sockets, p50 ${ms(step.p50)}, p95 ${ms(step.p95)}, p99 ${ms(step.p99)}, ${step.missed} missed, ${step.cpuMicrosPerMessage.toFixed(1)} µs a message (${ms(step.cpuMsPerChange)} of server CPU a change), ${(step.bytesPerSocket / 1024).toFixed(1)} KB a socket (load ${load()})`,
      );
    }
    const held = steps.filter((step) => step.p99 < TARGET_P99_MS && step.missed === 0).at(-1);

    out('');
    for (const line of firstLines) out(line);
    out(
      `4. count subscribers on one process, held by ${CLIENT_PROCESSES} client processes; ${STEP_CHANGES} changes ${STEP_GAP_MS} ms apart each step:`,
    );
    out('   | sockets | p50 | p95 | p99 | missed | server CPU µs a delivered message | server CPU a change | server RSS per idle socket |');
    out('   |---|---|---|---|---|---|---|---|');
    for (const step of steps)
      out(
        `   | ${step.subscribers.toLocaleString('en')} | ${ms(step.p50)} | ${ms(step.p95)} | ${ms(step.p99)} | ${step.missed} | ${step.cpuMicrosPerMessage.toFixed(1)} | ${ms(step.cpuMsPerChange)} | ${(step.bytesPerSocket / 1024).toFixed(1)} KB |`,
      );
    out(`   most held with p99 < ${TARGET_P99_MS} ms: ${held ? held.subscribers.toLocaleString('en') : 'none of the steps'}`);
    const last = steps.at(-1);
    if (last) {
      for (const sockets of [20_000, 50_000])
        out(
          `   extrapolated from ${last.subscribers.toLocaleString('en')} (not measured: the open-file limit): ${sockets.toLocaleString('en')} sockets need ${((last.bytesPerSocket * sockets) / MB).toFixed(0)} MB for idle sockets and ${((last.cpuMicrosPerMessage * sockets) / 1000).toFixed(0)} ms of one core per count change`,
        );
    }
    if (subscriptionErrors.length > 0)
      out(`subscriptions ended by the server: ${subscriptionErrors.length}, e.g. ${subscriptionErrors.slice(0, 3).join('; ')}`);
    out(`load average at end (1 / 5 / 15 min): ${load()}`);
  } finally {
    await db.end();
    await server.stop();
    await database.close();
  }
}

await main();
