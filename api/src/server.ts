import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded-postgres.js';
import { migrate, type Orm, openOrm } from './db/orm.js';
import { demoLoginsExist, loadDemoCatalogueOnce, loadDemoWorld } from './demo-world/loader.js';
import { indexDemoReferencesOnce } from './demo-world/recognition-references.js';
import { buildApp } from './http/app.js';
import { createStorage } from './modules/media/storage-factory.js';
import { createServices, type Services } from './services.js';

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  hasDemoLogins: boolean;
  stop(): Promise<void>;
}

export interface PreparedDatabase {
  url: string;
  /** Whether the demo world's logins exist (the start prints them). */
  hasDemoLogins: boolean;
  /** Stops the embedded PostgreSQL, if this process started one. */
  stop(): Promise<void>;
}

/**
 * The database the server uses (the embedded one without DATABASE_URL), with every migration applied and, on the
 * first start with an empty database (unless DEMO=0), the demo world loaded.
 */
export async function prepareDatabase(config: Config, log: FastifyBaseLogger): Promise<PreparedDatabase> {
  let embedded: EmbeddedDatabase | undefined;
  if (!config.DATABASE_URL) embedded = await startEmbeddedPostgres(join(config.DATA_DIR, 'postgres'), config.EMBEDDED_PG_PORT, log);
  const url = config.DATABASE_URL ?? embedded?.url ?? '';
  let hasDemoLogins = false;
  try {
    const orm = await openOrm(url, log);
    try {
      await migrate(orm);
      if (config.DEMO) await loadDemoWorld({ orm, storage: createStorage(config), log });
      hasDemoLogins = await demoLoginsExist(orm);
    } finally {
      await orm.close();
    }
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  return { url, hasDemoLogins, stop: async () => embedded?.stop() };
}

/** Opens the database (the embedded one without DATABASE_URL), applies migrations, and serves on config.PORT. */
export async function startServer(config: Config, log: FastifyBaseLogger, webRoot?: string): Promise<RunningServer> {
  const database = await prepareDatabase(config, log);
  try {
    const orm = await openOrm(database.url, log);
    const services = await createServices(config, orm, log);
    const app = await buildApp(services, { logger: log, webRoot });
    await app.listen({ port: config.PORT, host: config.HOST });
    // The demo catalogue's first load takes seconds: the server serves meanwhile (lookups find fewer options until then).
    // Then the demo references are fingerprinted for recognition (once; a stop interrupts it between references).
    const stopping = new AbortController();
    const catalogue = config.DEMO ? loadDemoCatalogueInBackground(orm, log, stopping.signal) : Promise.resolve();
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    return {
      app,
      services,
      url: `http://127.0.0.1:${port}`,
      hasDemoLogins: database.hasDemoLogins,
      async stop() {
        stopping.abort();
        await catalogue;
        await app.close();
        await services.close();
        await orm.close();
        await database.stop();
      },
    };
  } catch (error) {
    await database.stop();
    throw error;
  }
}

/** Loads the demo catalogue (see loadDemoCatalogueOnce) while the server serves; a failure is logged, never thrown. */
function loadDemoCatalogueInBackground(orm: Orm, log: FastifyBaseLogger, signal: AbortSignal): Promise<void> {
  return loadDemoCatalogueOnce({ orm, log })
    .then(async () => {
      if (!signal.aborted && (await demoLoginsExist(orm))) await indexDemoReferencesOnce({ orm, log }, signal);
    })
    .catch((error: unknown) => log.error({ err: error }, 'loading the demo catalogue or its fingerprints failed'));
}
