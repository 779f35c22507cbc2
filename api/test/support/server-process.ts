import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const API_DIR = join(import.meta.dirname, '..', '..');

export interface LogRecord {
  pid: number;
  level: number;
  msg: string;
}

/** The real server (`src/main.ts`) in a child process of its own, listening on a free port. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Every JSON log record it printed so far. */
  records: LogRecord[];
  /** Every line it wrote so far, to stdout and stderr alike. */
  output: string[];
  /** SIGKILL, as a crash or the OOM killer would: no shutdown hook runs. Resolves once the process is gone. */
  crash(): Promise<void>;
  /** SIGTERM, the orderly stop. */
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  databaseUrl: string;
  dataDir: string;
  /** More environment (REDIS_URL, GCS_BUCKET...), over the defaults below; undefined leaves a variable unset. */
  env?: Record<string, string | undefined>;
  /** Where it listens (default loopback), and a command prefix that runs it there (a network namespace's). */
  host?: { address: string; command: string[] };
}

/** Every server this test file started that may still run: a test that timed out while one started leaves it here. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

async function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = once(child, 'exit');
  child.kill(signal);
  await exit;
}

/**
 * Starts the server on DATABASE_URL (never the embedded PostgreSQL: its postgres child would outlive a SIGKILLed Node)
 * and DATA_DIR, and resolves once it logs that it is ready.
 */
export async function startServerProcess({ databaseUrl, dataDir, env = {}, host }: ServerProcessOptions): Promise<ServerProcess> {
  const [program, ...args] = [...(host?.command ?? []), process.execPath, '--import', 'tsx', 'src/main.ts'];
  const environment: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: 'test',
    WEB_CONCURRENCY: '1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: host?.address ?? '127.0.0.1',
    DEMO: '0',
    REDIS_URL: '',
    LOG_LEVEL: 'info',
    ...env,
  };
  const child = spawn(program ?? process.execPath, args, {
    cwd: API_DIR,
    env: Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const records: LogRecord[] = [];
  const output: string[] = [];
  createInterface({ input: child.stderr ?? process.stdin }).on('line', (line) => {
    output.push(line);
    process.stderr.write(`${line}\n`);
  });
  let url = '';
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('exit', (code, signal) => reject(new Error(`mixcrate exited (${signal ?? code}) before it was ready`)));
      createInterface({ input: child.stdout ?? process.stdin }).on('line', (line) => {
        output.push(line);
        if (!line.startsWith('{')) return;
        const record = JSON.parse(line) as LogRecord;
        records.push(record);
        const listening = new RegExp(`Server listening at (http://${(host?.address ?? '127.0.0.1').replaceAll('.', '\\.')}:\\d+)`).exec(
          record.msg,
        );
        if (listening?.[1]) url = listening[1];
        if (record.msg === 'mixcrate is ready') resolve();
      });
    });
  } catch (error) {
    await ended(child, 'SIGKILL');
    throw error;
  }
  return {
    child,
    url,
    port: Number(new URL(url).port),
    records,
    output,
    crash: () => ended(child, 'SIGKILL'),
    stop: () => ended(child, 'SIGTERM'),
  };
}
