/**
 * `npm start` from a fresh clone (after `npm install`), then a restart: `npm start`'s launcher (scripts/start.mjs)
 * with `--force`, as a clone has no build yet: the API's build, then the web app's beside the server's start on a fresh
 * data folder with the embedded PostgreSQL; timed to the home page answering, to every mix on the home page's first
 * screen being playable (the build publishes each mix once its MP3 is stored, in the feed's order, and logs when the
 * first page's all play; the home page must answer too) and to the whole demo world (members, mixes, catalogue,
 * recognition index) being in, each with the CPU seconds the server (all its threads and the embedded PostgreSQL) had
 * used by then and those of everything `npm start` ran (the builds too); then a stop and a start again on the same
 * folder, timed to the home page. Targets: home page and first screen playable < 15 s, whole demo world < 30 s,
 * restart < 5 s.
 * BENCH_STARTUP_NO_BUILD=1 leaves the build out (the API and web app as built last: the server alone).
 * BENCH_STARTUP_COMPARE=<another checkout> runs that checkout's start and this one's in turn, BENCH_STARTUP_PAIRS
 * pairs (default 2): a checkout without scripts/start.mjs (before the launcher) builds first, then starts the server.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
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

/** CPU seconds of the processes this one started and waited for (a build run with spawnSync). */
function cpuSecondsOfReapedChildren(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

/** The build step of a checkout from before the launcher: its forced build, timed and with its CPU seconds. */
function buildFirst(root: string, force: boolean): { ms: number; cpu: number } {
  const started = Date.now();
  const cpu = cpuSecondsOfReapedChildren();
  const run = spawnSync(process.execPath, [join(root, 'scripts/build-if-changed.mjs'), ...(force ? ['--force'] : [])], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (run.status !== 0) throw new Error('the build failed');
  return { ms: Date.now() - started, cpu: cpuSecondsOfReapedChildren() - cpu };
}

/** When a step was reached: seconds since the start, and CPU seconds by then (the server's; all of npm start's). */
interface Milestone {
  ms: number;
  cpu: number;
  allCpu: number;
}

interface Started {
  child: ChildProcess;
  homeMs: Promise<number>;
  firstScreen: Promise<Milestone>;
  world: Promise<Milestone>;
}

/** The API server among `launcher`'s children (or the launcher itself, when it is the server). */
function serverPid(launcher: number): number {
  for (const child of spawnSync('pgrep', ['-P', String(launcher)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)) {
    const command = (() => {
      try {
        return readFileSync(`/proc/${child}/cmdline`, 'utf8');
      } catch {
        return '';
      }
    })();
    if (command.includes('dist/main.js')) return Number(child);
  }
  return launcher;
}

/**
 * `npm start` as a checkout runs it, on a data folder: its launcher (with `--force` for a fresh clone), or the compiled
 * API alone (`launcher` false); resolves its milestones from its JSON log and the home page. `cpuBefore` is CPU spent
 * before this process (a build run first), counted in the `allCpu` figures.
 */
function startServer(root: string, dataDir: string, since: number, launcher: { force: boolean } | null, cpuBefore = 0): Started {
  const env = {
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
  };
  const child = launcher
    ? spawn(process.execPath, [join(root, 'scripts/start.mjs'), ...(launcher.force ? ['--force'] : [])], {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      })
    : spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
        cwd: join(root, 'api'),
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
  const pid = child.pid ?? 0;
  const reached = (): Milestone => ({
    ms: Date.now() - since,
    cpu: cpuSecondsOfTree(serverPid(pid)),
    allCpu: cpuSecondsOfTree(pid) + cpuBefore,
  });
  let firstScreenReached: (milestone: Milestone) => void = () => undefined;
  const firstScreenLogged = new Promise<Milestone>((resolve) => {
    firstScreenReached = resolve;
  });
  const world = new Promise<Milestone>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    createInterface({ input: child.stdout ?? process.stdin }).on('line', (line) => {
      if (line.includes('demo world complete')) resolve(reached());
      if (line.includes('first screen playable')) firstScreenReached(reached());
      if (line.includes('"building the demo world"')) {
        const { done, of } = JSON.parse(line) as { done: number; of: number };
        const { ms, cpu, allCpu } = reached();
        out(
          `  ${seconds(ms).padStart(5)} s  demo world ${done}/${of} (${cpu.toFixed(0)} CPU s of the server, ${allCpu.toFixed(0)} in all; load ${load()})`,
        );
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
  homeMs.catch(() => undefined);
  // Playable means a visitor can play them: the home page that lists them answers as well.
  const firstScreen = Promise.all([firstScreenLogged, homeMs]).then(([logged, home]) =>
    home <= logged.ms ? logged : { ...logged, ms: home },
  );
  return { child, homeMs, firstScreen, world };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

interface Run {
  homeMs: number;
  firstScreen: Milestone;
  world: Milestone;
  restartMs: number;
}

/** A fresh clone's start and a restart of the checkout at `root`. */
async function runOnce(root: string, withBuild: boolean): Promise<Run> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-bench-startup-'));
  try {
    const hasLauncher = existsSync(join(root, 'scripts/start.mjs'));
    const since = Date.now();
    let first: Started;
    if (withBuild && !hasLauncher) {
      const built = buildFirst(root, true);
      out(`  ${seconds(built.ms).padStart(5)} s  built the API and the web app first (${built.cpu.toFixed(0)} CPU s; load ${load()})`);
      first = startServer(root, dataDir, since, null, built.cpu);
    } else first = startServer(root, dataDir, since, withBuild ? { force: true } : null);
    const homeMs = await first.homeMs;
    out(`  ${seconds(homeMs).padStart(5)} s  home page answers (load ${load()})`);
    const firstScreen = await first.firstScreen;
    out(
      `  ${seconds(firstScreen.ms).padStart(5)} s  every mix of the home page's first screen playable (${firstScreen.cpu.toFixed(0)} CPU s of the server, ${firstScreen.allCpu.toFixed(0)} in all; load ${load()})`,
    );
    const world = await first.world;
    out(
      `  ${seconds(world.ms).padStart(5)} s  whole demo world in (load ${load()}); the server used ${world.cpu.toFixed(0)} CPU seconds to get there, npm start ${world.allCpu.toFixed(0)} in all (${(world.allCpu / availableParallelism()).toFixed(0)} s of all ${availableParallelism()} cores)`,
    );
    await stop(first.child);

    const again = Date.now();
    if (withBuild && !hasLauncher) buildFirst(root, false);
    const restart = startServer(root, dataDir, again, withBuild && hasLauncher ? { force: false } : null);
    const restartMs = await restart.homeMs;
    await stop(restart.child);
    out(`restart: ${seconds(restartMs)} s to the home page (load ${load()})`);
    return { homeMs, firstScreen, world, restartMs };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const withBuild = process.env.BENCH_STARTUP_NO_BUILD !== '1';
  const compare = process.env.BENCH_STARTUP_COMPARE;
  const pairs = compare ? Number(process.env.BENCH_STARTUP_PAIRS ?? 2) : 1;
  out(`startup benchmark: ${availableParallelism()} CPUs, load average ${load()} at the start`);
  const runs: { name: string; run: Run }[] = [];
  for (let pair = 0; pair < pairs; pair += 1) {
    for (const [name, root] of compare ? [['before', compare] as const, ['after', ROOT] as const] : [['this checkout', ROOT] as const]) {
      out(`${name}${compare ? `, pair ${pair + 1} (${root})` : ''}: load ${load()}`);
      runs.push({ name, run: await runOnce(root, withBuild) });
    }
  }
  out();
  out('| run | step | seconds | server CPU seconds by then | npm start CPU seconds by then | target |');
  out('|---|---|---|---|---|---|');
  let failed = false;
  for (const { name, run } of runs) {
    const rows = [
      ['fresh clone: home page answers', run.homeMs, null, TARGETS.homeSeconds],
      ["fresh clone: home page's first screen playable", run.firstScreen.ms, run.firstScreen, TARGETS.firstScreenSeconds],
      ['fresh clone: whole demo world in', run.world.ms, run.world, TARGETS.worldSeconds],
      ['restart: home page answers', run.restartMs, null, TARGETS.restartSeconds],
    ] as const;
    for (const [step, ms, cpu, target] of rows) {
      const met = ms / 1000 < target;
      if (!met && name !== 'before') failed = true;
      out(
        `| ${name} | ${step}${withBuild ? '' : ' (no build)'} | ${seconds(ms)} | ${cpu ? cpu.cpu.toFixed(0) : ''} | ${cpu ? cpu.allCpu.toFixed(0) : ''} | < ${target} s: ${met ? 'met' : 'MISSED'} |`,
      );
    }
  }
  out(`(load average ${load()} at the end)`);
  process.exitCode = failed ? 1 : 0;
}

await main();
