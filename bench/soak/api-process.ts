import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { out, ROOT } from '../support.js';
import { api as origin } from './http.js';

/** The API in its own process, its log in a file, stopped (and its files, database and log removed) whatever happens. */

export interface Api {
  pid: number;
  child: ChildProcess;
  logPath: string;
  exited: boolean;
}

const cleanups: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | null = null;

/** Runs at clean-up, the last added first. */
export const onCleanUp = (cleanup: () => Promise<void>) => cleanups.push(cleanup);

export function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => out(`cleanup: ${(error as Error).message}`));
  })();
  return cleaning;
}

/**
 * `interrupted`: set by Ctrl-C; while the load runs (`loading`) the load stops, the figures so far are printed, then
 * everything is cleaned up.
 */
export const run = { interrupted: false, loading: false };
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    process.exitCode = 130;
    if (run.loading && !run.interrupted) {
      run.interrupted = true;
      out(`\n${signal}: stopping the load; the figures so far follow, then the API, database and files are removed (again to quit now)`);
      return;
    }
    run.interrupted = true;
    out(`\n${signal}: stopping the API, dropping the database, removing the temporary files ...`);
    cleanUp().finally(() => process.exit(130));
  });
}

/** The log of the API started last, once there is one. */
export const apiLog: { path?: string } = {};

/** The server's log lines at error level (with their stacks), and the first warnings. */
export async function printServerLog(logPath: string): Promise<void> {
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

export async function startApi(databaseUrl: string): Promise<Api> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-bench-soak-'));
  onCleanUp(() => rm(dataDir, { recursive: true, force: true }));
  const logDir = await mkdtemp(join(tmpdir(), 'mixcrate-bench-soak-log-'));
  onCleanUp(() => rm(logDir, { recursive: true, force: true }));
  const logPath = join(logDir, 'api.log');
  apiLog.path = logPath;
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
  onCleanUp(async () => {
    if (api.exited) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await once(child, 'exit').catch(() => undefined);
    clearTimeout(killer);
  });
  const lines = createInterface({ input: child.stdout ?? process.stdin });
  const first = await Promise.race([once(lines, 'line').then(([line]) => String(line)), once(child, 'exit').then(() => null)]);
  if (first === null) throw new Error(`the API did not start:\n${readFileSync(logPath, 'utf8').slice(-4000)}`);
  origin.base = `http://127.0.0.1:${(JSON.parse(first) as { port: number }).port}`;
  return api;
}
