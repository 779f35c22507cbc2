import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded-postgres.js';
import { migrate, openOrm } from './db/orm.js';
import { buildApp } from './http/app.js';
import { createServices, type Services } from './services.js';

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  stop(): Promise<void>;
}

/** Opens the database (the embedded one without DATABASE_URL), applies migrations, and serves on config.PORT. */
export async function startServer(config: Config, log: FastifyBaseLogger, webRoot?: string): Promise<RunningServer> {
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(join(config.DATA_DIR, 'postgres'), config.EMBEDDED_PG_PORT, log);
    databaseUrl = embedded.url;
  }
  try {
    const orm = await openOrm(databaseUrl, log);
    await migrate(orm);
    const services = await createServices(config, orm, log);
    const app = await buildApp(services, { logger: log, webRoot });
    await app.listen({ port: config.PORT, host: config.HOST });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    return {
      app,
      services,
      url: `http://127.0.0.1:${port}`,
      async stop() {
        await app.close();
        await services.close();
        await orm.close();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
