/**
 * A listener seeking around a two-hour mix: random 256 KB Range requests for one MP3 (about 115 MB, 2 h at 128 kbps),
 * served by our API (which checks the mix is visible on every request and streams from the storage driver) and by
 * nginx serving the same file straight from disk, with the same load tool (wrk, in C, so the client is not the
 * bottleneck) and settings, one after the other; and our API again with MEDIA_ZERO_COPY=0 (every range read into
 * memory and written out), to show what sendfile saves.
 * Target: at least 0.8x nginx's requests per second on this 2-core machine.
 * BENCH_RANGE_RUNS=5 measures only our API against nginx (2 workers), five times over, and prints each run's ratio and
 * both servers' CPU per range beside the load average (the issue's target: 1.0x in each of five runs).
 * BENCH_RANGE_COMPARE_ROOT=DIR adds, in that mode, the API of another checkout (an earlier commit) on the same files.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { benchDatabase, MB, mp3Frames, out, signUp, startApi } from './support.js';

const RANGE_BYTES = 256 * 1024;
const CONNECTIONS = Number(process.env.BENCH_RANGE_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.BENCH_RANGE_SECONDS ?? 10);
const ROUNDS = 2;
const TARGET_RATIO = 0.8;
const RUNS = Number(process.env.BENCH_RANGE_RUNS ?? 1);

/** A Debian package's program, installed when missing (the bench machine reaches Debian's archive). */
function ensureProgram(name: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${name} || ls /usr/sbin/${name}`], { encoding: 'utf8' })
    .stdout.trim()
    .split('\n')[0];
  if (found) return found;
  out(`installing ${name} (apt-get install -y ${name}) ...`);
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', name], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  if (install().status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'ignore' });
    if (install().status !== 0) throw new Error(`could not install ${name}`);
  }
  return spawnSync('sh', ['-c', `command -v ${name} || ls /usr/sbin/${name}`], { encoding: 'utf8' }).stdout.trim();
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** nginx on a loopback port serving `${mediaRoot}` at /media/, configured the way one would for static audio. */
interface Server {
  base: string;
  /** Every process that serves requests (nginx's workers, the API's processes). */
  pids(): number[];
  stop(): Promise<void>;
}

/** CPU time (user + system) the processes have used so far, in microseconds. */
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
function cpuMicros(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    // The fields after the command name (which may hold spaces, so split after its closing parenthesis).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks / TICKS_PER_SECOND) * 1e6;
}

const childrenOf = (pid: number): number[] =>
  spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map(Number);

async function startNginx(binary: string, mediaRoot: string, workers: 'auto' | number): Promise<Server> {
  const dir = await mkdtemp(join(tmpdir(), 'mixcrate-bench-nginx-'));
  const port = await freePort();
  await writeFile(
    join(dir, 'nginx.conf'),
    `worker_processes ${workers};
user root;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { audio/mpeg mp3; }
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location /media/ { alias ${mediaRoot}/; add_header Cache-Control "public, max-age=31536000, immutable"; }
  }
}
`,
  );
  const child: ChildProcess = spawn(binary, ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'inherit' });
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (
      await fetch(`${base}/`).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    base,
    pids: () => childrenOf(child.pid ?? 0),
    async stop() {
      child.kill('SIGQUIT');
      await once(child, 'exit');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

interface LoadResult {
  requestsPerSecond: number;
  megabytesPerSecond: number;
  p50: number;
  p99: number;
  wrongStatus: number;
  /** The server's CPU time per request (all its processes, user and system): steadier than requests/s on a shared machine. */
  cpuMicrosPerRequest: number;
}

/** The wrk script: every request asks for a fresh random 256 KB range of the file. */
const wrkScript = (size: number) => `
math.randomseed(os.time())
request = function()
  local start = math.random(0, ${size - RANGE_BYTES})
  return wrk.format("GET", nil, { Range = "bytes=" .. start .. "-" .. (start + ${RANGE_BYTES - 1}) })
end
`;

const WRK_UNITS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, B: 1 / MB, KB: 1 / 1024, MB: 1, GB: 1024 };
const wrkNumber = (text: string, pattern: RegExp): number => {
  const match = pattern.exec(text);
  return match ? Number(match[1]) * (WRK_UNITS[match[2] ?? ''] ?? 1) : Number.NaN;
};

async function load(wrk: string, scriptPath: string, url: string, seconds: number, serverPids: number[]): Promise<LoadResult> {
  const cpuBefore = cpuMicros(serverPids);
  const run = spawnSync(wrk, ['-t2', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '-s', scriptPath, url], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`);
  const text = run.stdout;
  const cpuUsed = cpuMicros(serverPids) - cpuBefore;
  return {
    requestsPerSecond: wrkNumber(text, /Requests\/sec:\s+([\d.]+)/),
    megabytesPerSecond: wrkNumber(text, /Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB)/),
    p50: wrkNumber(text, /50%\s+([\d.]+)(us|ms|s)/),
    p99: wrkNumber(text, /99%\s+([\d.]+)(us|ms|s)/),
    wrongStatus: wrkNumber(text, /Non-2xx or 3xx responses:\s+(\d+)/) || 0,
    cpuMicrosPerRequest: cpuUsed / wrkNumber(text, /(\d+) requests in/),
  };
}

async function main(): Promise<void> {
  const nginxBinary = ensureProgram('nginx');
  const wrk = ensureProgram('wrk');
  const database = await benchDatabase();
  // BENCH_RANGE_PROCESSES=2 runs the API as WEB_CONCURRENCY=2 does (measured: no gain here, the cores are full).
  const processes = Number(process.env.BENCH_RANGE_PROCESSES ?? 1);
  const api = await startApi(database.url, processes);
  let failed = false;
  const stoppers: { stop(): Promise<void> }[] = [];
  try {
    const token = await signUp(api.base);
    const frames = mp3Frames(20, 128);
    const repeats = 360; // 2 hours
    const size = frames.length * repeats;
    const boundary = 'benchrange0b1e';
    const cover = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#333' } })
      .jpeg()
      .toBuffer();
    const head = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cover"; filename="c.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      cover,
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nSeek test\r\n--${boundary}\r\nContent-Disposition: form-data; name="genre"\r\n\r\nhouse\r\n--${boundary}\r\nContent-Disposition: form-data; name="mp3"; filename="m.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`,
      ),
    ]);
    const body = Buffer.concat([head, ...Array.from({ length: repeats }, () => frames), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const created = await fetch(`${api.base}/api/mix/create-mix`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-auth-token': token },
      body,
    });
    if (created.status !== 201) throw new Error(`create-mix failed: ${await created.text()}`);
    const mix = (await created.json()) as { _id: string; mp3: string };
    const sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    await sql.query(`update mix set status = 'published', published_at = now(), expires_at = now() + interval '1 year' where id = $1`, [
      mix._id,
    ]);
    // The upload queued the waveform job, which decodes the whole MP3 (a minute of one core for two hours of audio):
    // measure the listener's side once it is done, as it is for every mix but the newest.
    const waveformDone = async () =>
      (await sql.query(`select waveform_state from mix where id = $1`, [mix._id])).rows[0]?.waveform_state !== 'pending';
    const waitUntil = Date.now() + 300_000;
    while (!(await waveformDone()) && Date.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 1000));
    await sql.end();

    // Debian's default (one worker per core, here 2), the comparison; and one worker, for scale.
    const copying = await startApi(database.url, processes, { dataDir: api.dataDir, env: { MEDIA_ZERO_COPY: '0' } });
    stoppers.push(copying);
    const nginx = await startNginx(nginxBinary, join(api.dataDir, 'media'), 'auto');
    stoppers.push(nginx);
    const nginxOne = await startNginx(nginxBinary, join(api.dataDir, 'media'), 1);
    stoppers.push(nginxOne);
    const ours = `${api.base}${mix.mp3}`;
    const oursCopying = `${copying.base}${mix.mp3}`;
    const theirs = `${nginx.base}${mix.mp3}`;
    const theirsOne = `${nginxOne.base}${mix.mp3}`;
    for (const url of [ours, oursCopying, theirs, theirsOne]) {
      const probe = await fetch(url, { headers: { range: 'bytes=0-9' } });
      if (probe.status !== 206) throw new Error(`${url} answered ${probe.status} to a range`);
      await probe.arrayBuffer();
    }
    out(
      `media range benchmark: ${(size / MB).toFixed(1)} MB MP3, random ${RANGE_BYTES / 1024} KB ranges, wrk 2 threads ${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} rounds each`,
    );
    const scriptPath = join(api.dataDir, 'ranges.lua');
    await writeFile(scriptPath, wrkScript(size));
    const apiPids = () => [api.pid, ...childrenOf(api.pid)];
    const targets = [
      {
        name: `mixcrate /media (${processes} Node process${processes > 1 ? 'es' : ''}: media path before Fastify, storage driver, visibility check)`,
        url: ours,
        pids: apiPids,
        results: [] as LoadResult[],
      },
      {
        name: 'mixcrate /media with MEDIA_ZERO_COPY=0 (each range read into memory, then written)',
        url: oursCopying,
        pids: () => [copying.pid, ...childrenOf(copying.pid)],
        results: [] as LoadResult[],
      },
      { name: 'nginx 1.22 static, sendfile, worker_processes auto (2)', url: theirs, pids: nginx.pids, results: [] as LoadResult[] },
      { name: 'nginx 1.22 static, sendfile, worker_processes 1', url: theirsOne, pids: nginxOne.pids, results: [] as LoadResult[] },
    ];
    // Several runs compare our API with nginx's default alone: the other two rows only explain, and would double the time.
    if (RUNS > 1) {
      targets.splice(3, 1);
      targets.splice(1, 1);
    }
    const compareRoot = RUNS > 1 ? process.env.BENCH_RANGE_COMPARE_ROOT : undefined;
    if (compareRoot) {
      const earlier = await startApi(database.url, processes, { dataDir: api.dataDir, root: compareRoot });
      stoppers.push(earlier);
      targets.push({
        name: `the API of ${compareRoot}`,
        url: `${earlier.base}${mix.mp3}`,
        pids: () => [earlier.pid, ...childrenOf(earlier.pid)],
        results: [],
      });
    }
    for (const target of targets) await load(wrk, scriptPath, target.url, 2, target.pids());
    const loadBefore = loadavg()[0].toFixed(2);
    const mean = (list: LoadResult[], pick: (result: LoadResult) => number) =>
      list.reduce((sum, result) => sum + pick(result), 0) / list.length;
    if (RUNS > 1) {
      const [oursTarget, nginxTarget, earlierTarget] = targets;
      if (earlierTarget) out(`(last two columns: ${earlierTarget.name}, measured in the same rounds)`);
      out(
        `| run | ours requests/s | nginx requests/s | ratio | ours CPU µs/range | nginx CPU µs/range | load average |${earlierTarget ? ' earlier requests/s | earlier CPU µs/range |' : ''}`,
      );
      out(`|---|---|---|---|---|---|---|${earlierTarget ? '---|---|' : ''}`);
      const ratios: number[] = [];
      for (let run = 1; run <= RUNS; run += 1) {
        for (const target of targets) target.results = [];
        for (let round = 0; round < ROUNDS; round += 1) {
          // Alternating which goes first, so neither always follows the other's heat.
          const order = (run + round) % 2 === 0 ? targets : [...targets].reverse();
          for (const target of order) target.results.push(await load(wrk, scriptPath, target.url, SECONDS, target.pids()));
        }
        const ours = oursTarget.results;
        const theirs = nginxTarget.results;
        const ratio = mean(ours, (r) => r.requestsPerSecond) / mean(theirs, (r) => r.requestsPerSecond);
        ratios.push(ratio);
        failed ||= ours.some((r) => r.wrongStatus > 0);
        out(
          `| ${run} | ${mean(ours, (r) => r.requestsPerSecond).toFixed(0)} | ${mean(theirs, (r) => r.requestsPerSecond).toFixed(0)} | ${ratio.toFixed(2)} | ${mean(ours, (r) => r.cpuMicrosPerRequest).toFixed(0)} | ${mean(theirs, (r) => r.cpuMicrosPerRequest).toFixed(0)} | ${loadavg()[0].toFixed(2)} |${earlierTarget ? ` ${mean(earlierTarget.results, (r) => r.requestsPerSecond).toFixed(0)} | ${mean(earlierTarget.results, (r) => r.cpuMicrosPerRequest).toFixed(0)} |` : ''}`,
        );
      }
      const met = ratios.every((ratio) => ratio >= 1);
      failed ||= !met;
      out();
      out(`ratio ours/nginx in each of ${RUNS} runs >= 1.0: ${met ? 'met' : 'MISSED'} (lowest ${Math.min(...ratios).toFixed(2)})`);
      out(`machine: ${availableParallelism()} CPUs, load average ${loadBefore} before and ${loadavg()[0].toFixed(2)} after measuring`);
      process.exitCode = failed ? 1 : 0;
      return;
    }
    // Interleaved rounds, so a noisy neighbour on the machine hurts all alike.
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const target of targets) target.results.push(await load(wrk, scriptPath, target.url, SECONDS, target.pids()));
    }
    out();
    out('| server | requests/s | MB/s | p50 ms | p99 ms | server CPU µs/request | non-206 |');
    out('|---|---|---|---|---|---|---|');
    for (const { name, results } of targets) {
      out(
        `| ${name} | ${mean(results, (r) => r.requestsPerSecond).toFixed(0)} | ${mean(results, (r) => r.megabytesPerSecond).toFixed(0)} | ${mean(results, (r) => r.p50).toFixed(1)} | ${mean(results, (r) => r.p99).toFixed(1)} | ${mean(results, (r) => r.cpuMicrosPerRequest).toFixed(0)} | ${results.reduce((sum, r) => sum + r.wrongStatus, 0)} |`,
      );
    }
    const [{ results: oursResults }, , { results: nginxResults }] = targets;
    const ratio = mean(oursResults, (r) => r.requestsPerSecond) / mean(nginxResults, (r) => r.requestsPerSecond);
    const cpuRatio = mean(nginxResults, (r) => r.cpuMicrosPerRequest) / mean(oursResults, (r) => r.cpuMicrosPerRequest);
    failed = ratio < TARGET_RATIO || oursResults.some((r) => r.wrongStatus > 0);
    out();
    out(
      `requests/s ratio ours/nginx (Debian default): ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}): ${ratio >= TARGET_RATIO ? 'met' : 'MISSED'}`,
    );
    out(`CPU per request ratio nginx/ours (1 = as cheap as nginx): ${cpuRatio.toFixed(2)}`);
    out(`machine: ${availableParallelism()} CPUs, load average ${loadBefore} before and ${loadavg()[0].toFixed(2)} after measuring`);
  } finally {
    for (const server of stoppers) await server.stop();
    await api.stop();
    await database.close();
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
