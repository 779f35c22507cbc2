/**
 * `npm start` from a fresh clone (after `npm install`), then a restart: the build step (forced, as a clone has no
 * build yet), the server on a fresh data folder with the embedded PostgreSQL, timed to the home page answering and to
 * every mix on the home page's first screen being playable (the build publishes each mix once its MP3 is stored, in the
 * feed's order, and logs when the first page's all play), and to the whole demo world (members, mixes, catalogue,
 * recognition index) being in, each with the CPU seconds the server (all its threads and the embedded PostgreSQL) had
 * used by then; then a stop and a start again on the same folder, timed to the home page. Targets: home page and
 * first screen playable < 15 s, whole demo world < 30 s, restart < 5 s.
 * BENCH_STARTUP_NO_BUILD=1 leaves the build out (the API and web app as built last).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { out, ROOT } from './support.js';

const PORT = Number(process.env.BENCH_STARTUP_PORT ?? 42151);
const PG_PORT = Number(process.env.BENCH_STARTUP_PG_PORT ?? 42152);
const TARGETS = { homeSeconds: 15, firstScreenSeconds: 15, worldSeconds: 30, restartSeconds: 5 };
const LIMIT_MS = 600_000;

const load = () => loadavg()[0].toFixed(2);
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * CPU seconds (user and system, every thread) a process and its live descendants (the embedded PostgreSQL) have used:
 * the work a step took, which the load of a shared machine does not change.
 */
function cpuSecondsOfTree(pid: number): number {
  let ticks = 0;
  const visit = (id: number) => {
    try {
      const fields = readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      return;
    }
    for (const child of spawnSync('pgrep', ['-P', String(id)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean))
      visit(Number(child));
  };
  visit(pid);
  return ticks / TICKS_PER_SECOND;
}
const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** `npm start`'s build step: `--force` on a fresh clone, where there is no build to reuse. */
function build(force: boolean): number {
  const started = Date.now();
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts/build-if-changed.mjs'), ...(force ? ['--force'] : [])], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (run.status !== 0) throw new Error('the build failed');
  return Date.now() - started;
}

/** When a step was reached: seconds since the start, and the server's CPU seconds by then. */
interface Milestone {
  ms: number;
  cpu: number;
}

interface Started {
  child: ChildProcess;
  homeMs: Promise<number>;
  firstScreen: Promise<Milestone>;
  world: Promise<Milestone>;
}

/** The compiled API as `npm start` runs it, on a data folder; resolves its milestones from its JSON log and the home page. */
function startServer(dataDir: string, since: number): Started {
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: join(ROOT, 'api'),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      JWT_SECRET: 'bench-startup-secret-bench-startup-secret',
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(PG_PORT),
      DEMO: '1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const reached = (): Milestone => ({ ms: Date.now() - since, cpu: cpuSecondsOfTree(child.pid ?? 0) });
  let firstScreenReached: (milestone: Milestone) => void = () => undefined;
  const firstScreen = new Promise<Milestone>((resolve) => {
    firstScreenReached = resolve;
  });
  const world = new Promise<Milestone>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    createInterface({ input: child.stdout ?? process.stdin }).on('line', (line) => {
      if (line.includes('demo world complete')) resolve(reached());
      if (line.includes('first screen playable')) firstScreenReached(reached());
      if (line.includes('"building the demo world"')) {
        const { done, of } = JSON.parse(line) as { done: number; of: number };
        const { ms, cpu } = reached();
        out(`  ${seconds(ms).padStart(5)} s  demo world ${done}/${of} (${cpu.toFixed(0)} CPU s; load ${load()})`);
      }
    });
  });
  world.catch(() => undefined);
  const homeMs = (async () => {
    while (Date.now() - since < LIMIT_MS) {
      // A server that exited (its port taken, say) will never answer: say so at once rather than after the limit.
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before the home page answered`);
      const answered = await fetch(`http://127.0.0.1:${PORT}/`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (answered) return Date.now() - since;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the home page never answered');
  })();
  return { child, homeMs, firstScreen, world };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-bench-startup-'));
  const withBuild = process.env.BENCH_STARTUP_NO_BUILD !== '1';
  out(`startup benchmark: ${availableParallelism()} CPUs, load average ${load()} at the start`);
  let failed = false;
  try {
    const since = Date.now();
    const buildMs = withBuild ? build(true) : 0;
    if (withBuild) out(`  ${seconds(buildMs).padStart(5)} s  built the API and the web app (load ${load()})`);
    const first = startServer(dataDir, since);
    const homeMs = await first.homeMs;
    out(`  ${seconds(homeMs).padStart(5)} s  home page answers (load ${load()})`);
    const firstScreen = await first.firstScreen;
    out(
      `  ${seconds(firstScreen.ms).padStart(5)} s  every mix of the home page's first screen playable (${firstScreen.cpu.toFixed(0)} CPU s; load ${load()})`,
    );
    const world = await first.world;
    out(
      `  ${seconds(world.ms).padStart(5)} s  whole demo world in (load ${load()}); the server used ${world.cpu.toFixed(0)} CPU seconds to get there (${(world.cpu / availableParallelism()).toFixed(0)} s of all ${availableParallelism()} cores)`,
    );
    await stop(first.child);

    const again = Date.now();
    const checkMs = build(false);
    const restart = startServer(dataDir, again);
    const restartMs = await restart.homeMs;
    await stop(restart.child);
    out(`restart: ${seconds(restartMs)} s to the home page (${checkMs} ms of it checking the builds; load ${load()})`);
    out();
    const rows = [
      ['fresh clone: home page answers', homeMs, null, TARGETS.homeSeconds],
      ["fresh clone: home page's first screen playable", firstScreen.ms, firstScreen.cpu, TARGETS.firstScreenSeconds],
      ['fresh clone: whole demo world in', world.ms, world.cpu, TARGETS.worldSeconds],
      ['restart: home page answers', restartMs, null, TARGETS.restartSeconds],
    ] as const;
    out('| step | seconds | server CPU seconds by then | target |');
    out('|---|---|---|---|');
    for (const [name, ms, cpu, target] of rows) {
      const met = ms / 1000 < target;
      if (!met) failed = true;
      out(
        `| ${name}${withBuild ? '' : ' (no build)'} | ${seconds(ms)} | ${cpu === null ? '' : cpu.toFixed(0)} | < ${target} s: ${met ? 'met' : 'MISSED'} |`,
      );
    }
    out(`(load average ${load()} at the end)`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
