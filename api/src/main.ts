import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Config, ConfigError, loadConfig } from './config.js';
import { DemoAudio } from './demo-world/demo-audio.js';
import { demoLoginsToLog, planWorld } from './demo-world/plan.js';
import { createLogger, logFormatFor } from './logger.js';
import { startBanner } from './start-banner.js';
import { webBuildBeside } from './web-build.js';

const WEB_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * A first start of one process on the embedded database (no data folder yet) builds the demo world into the database
 * it is about to create, so the demo world's audio work (nearly all of that build) begins at once, on its threads,
 * while the server's code loads and its database is made: about three seconds sooner than the server could ask.
 */
const beginsDemoAudio = (config: Config, clustered: boolean) =>
  config.DEMO && !clustered && !config.DATABASE_URL && !existsSync(join(config.DATA_DIR, 'postgres'));

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logFormat = logFormatFor(config.isProduction, process.stdout.isTTY);
  const log = createLogger(config.LOG_LEVEL, logFormat);
  const started = Date.now();
  const clustered = cluster.isPrimary && config.WEB_CONCURRENCY > 1;
  const demoAudio = beginsDemoAudio(config, clustered) ? new DemoAudio(planWorld()) : undefined;
  // A cluster's API processes are forked with this process's arguments, but only after the web app's build.
  const webBuilt = cluster.isPrimary ? webBuildBeside() : undefined;
  // Loaded only now, so the demo world's threads start before the server's code (a second and a half) loads.
  const [{ prepareDatabase, startServer }, { runCluster }] = await Promise.all([import('./server.js'), import('./cluster.js')]);
  const database = clustered ? await prepareDatabase(config, log) : null;
  if (database && webBuilt)
    await webBuilt.catch(async (error: unknown) => {
      await database.stop();
      throw error;
    });
  const server = database
    ? await runCluster(config.WEB_CONCURRENCY, database, log)
    : await startServer(config, log, WEB_ROOT, { demoAudio, webBuilt });
  if (cluster.isPrimary) {
    const hasDemoLogins = database?.hasDemoLogins ?? ('hasDemoLogins' in server && server.hasDemoLogins === true);
    const buildsDemoWorld = database?.buildsDemoWorld ?? ('buildsDemoWorld' in server && server.buildsDemoWorld === true);
    const ms = Date.now() - started;
    if (logFormat === 'text') {
      process.stdout.write(
        startBanner({
          url: config.PUBLIC_URL,
          processes: config.WEB_CONCURRENCY,
          ms,
          hasDemoLogins,
          buildsDemoWorld,
          dataDir: config.DATA_DIR,
          databaseUrl: config.DATABASE_URL,
          gcsBucket: config.GCS_BUCKET,
        }),
      );
    } else {
      if (hasDemoLogins) {
        log.info(demoLoginsToLog(config.isProduction), 'demo logins');
      }
      log.info(
        {
          url: config.PUBLIC_URL,
          dataDir: config.DATA_DIR,
          database: config.DATABASE_URL ? 'DATABASE_URL' : 'embedded',
          processes: config.WEB_CONCURRENCY,
          ms,
          buildsDemoWorld,
        },
        'mixcrate is ready',
      );
    }
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await server.stop().catch((error) => log.error({ err: error }, 'shutdown failed'));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  process.stderr.write(`mixcrate could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
