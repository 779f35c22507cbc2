import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded-postgres.js';
import { migrate, type Orm, openOrm } from './db/orm.js';
import type { DemoAudio } from './demo-world/demo-audio.js';
import { databaseIsEmpty, demoLoginsExist, loadDemoCatalogueOnce, loadDemoWorld } from './demo-world/loader.js';
import { demoLoginsToLog } from './demo-world/plan.js';
import { indexDemoReferencesOnce } from './demo-world/recognition-references.js';
import { buildApp } from './http/app.js';
import { createServices, type Services } from './services.js';
import type { StorageDriver } from './storage/storage.js';

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  hasDemoLogins: boolean;
  /** Whether the demo world is being built in the background (a first start). */
  buildsDemoWorld: boolean;
  stop(): Promise<void>;
}

export interface PreparedDatabase {
  url: string;
  /** Whether the demo world's logins exist (the start prints them). */
  hasDemoLogins: boolean;
  /** Whether the server builds the demo world once it serves: DEMO=1 and a database without members. */
  buildsDemoWorld: boolean;
  /** Stops the embedded PostgreSQL, if this process started one. */
  stop(): Promise<void>;
}

/** The database the server uses (the embedded one without DATABASE_URL), with every migration applied. */
export async function prepareDatabase(config: Config, log: FastifyBaseLogger): Promise<PreparedDatabase> {
  let embedded: EmbeddedDatabase | undefined;
  if (!config.DATABASE_URL) embedded = await startEmbeddedPostgres(join(config.DATA_DIR, 'postgres'), config.EMBEDDED_PG_PORT, log);
  const url = config.DATABASE_URL ?? embedded?.url ?? '';
  let hasDemoLogins = false;
  let buildsDemoWorld = false;
  try {
    const orm = await openOrm(url, log);
    try {
      await migrate(orm);
      hasDemoLogins = await demoLoginsExist(orm);
      buildsDemoWorld = config.DEMO && (await databaseIsEmpty(orm));
    } finally {
      await orm.close();
    }
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  return { url, hasDemoLogins, buildsDemoWorld, stop: async () => embedded?.stop() };
}

/** What a start may have begun before the server's code loaded (see main.ts). */
export interface StartBegun {
  /** The demo world's audio work, begun by a first start before anything else. */
  demoAudio?: DemoAudio;
  /** The web app's build that `npm start` runs beside this start (see web-build.ts): nothing is served before its end. */
  webBuilt?: Promise<void>;
}

/**
 * Opens the database (the embedded one without DATABASE_URL), applies migrations, and serves on config.PORT; then,
 * with DEMO on, builds what is missing of the demo world while it serves (see buildDemoWorldInBackground). A start
 * beside the web app's build begins the demo world at once and listens only once the build is done.
 */
export async function startServer(
  config: Config,
  log: FastifyBaseLogger,
  webRoot?: string,
  { demoAudio, webBuilt }: StartBegun = {},
): Promise<RunningServer> {
  const database = await prepareDatabase(config, log).catch(async (error: unknown) => {
    await demoAudio?.close();
    throw error;
  });
  const stopping = new AbortController();
  let demoWorld: Promise<void> | undefined;
  try {
    const orm = await openOrm(database.url, log);
    const services = await createServices(config, orm, log);
    // main.ts begins the demo audio only with DEMO on.
    const beginDemoWorld = () =>
      config.DEMO
        ? buildDemoWorldInBackground(orm, services.storage, log, stopping.signal, demoAudio, config.isProduction)
        : Promise.resolve();
    if (webBuilt) {
      // The rows, covers and first mixes need no web app: they go in while it builds, published as each can play.
      demoWorld = beginDemoWorld();
      await webBuilt.catch(async (error: unknown) => {
        stopping.abort();
        await demoWorld;
        await services.close();
        await orm.close();
        throw error;
      });
    }
    const app = await buildApp(services, { logger: log, webRoot });
    await app.listen({ port: config.PORT, host: config.HOST });
    demoWorld ??= beginDemoWorld();
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    return {
      app,
      services,
      url: `http://127.0.0.1:${port}`,
      hasDemoLogins: database.hasDemoLogins,
      buildsDemoWorld: database.buildsDemoWorld,
      async stop() {
        stopping.abort();
        await demoWorld;
        await app.close();
        await services.close();
        await orm.close();
        await database.stop();
      },
    };
  } catch (error) {
    stopping.abort();
    await demoWorld;
    await demoAudio?.close();
    await database.stop();
    throw error;
  }
}

/**
 * The demo world while the server serves: on a first start (a database without members) its members, mixes and files
 * (a minute of audio work on every core, in worker threads, logging its progress), then the demo catalogue (once) and
 * the recognition index of its references (once). Each step skips what is there, so a later start only checks. A stop
 * ends the build (which removes what it wrote, so the next start builds it again); a failure is logged, never thrown.
 */
function buildDemoWorldInBackground(
  orm: Orm,
  storage: StorageDriver,
  log: FastifyBaseLogger,
  signal: AbortSignal,
  audio: DemoAudio | undefined,
  isProduction: boolean,
): Promise<void> {
  const started = Date.now();
  const build = async () => {
    const built = await loadDemoWorld({ orm, storage, log, signal, audio });
    if (built) {
      log.info(demoLoginsToLog(isProduction), 'demo world ready: sign in with these');
    }
    if (signal.aborted) return;
    await loadDemoCatalogueOnce({ orm, log });
    if (!signal.aborted && (await demoLoginsExist(orm))) await indexDemoReferencesOnce({ orm, log }, signal);
    if (built && !signal.aborted)
      log.info({ ms: Date.now() - started }, 'demo world complete: members, mixes, catalogue, recognition index');
  };
  return build().catch((error: unknown) => {
    if (!signal.aborted) log.error({ err: error }, 'building the demo world failed');
  });
}
