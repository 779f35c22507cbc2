import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { runCluster } from './cluster.js';
import { ConfigError, loadConfig } from './config.js';
import { DEMO_LOGINS } from './demo-world/plan.js';
import { prepareDatabase, startServer } from './server.js';

const WEB_ROOT = fileURLToPath(new URL('../../web/dist', import.meta.url));

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
  const log = pino({
    level: config.LOG_LEVEL,
    transport: !config.isProduction && process.stdout.isTTY ? { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } : undefined,
  });
  const started = Date.now();
  const clustered = cluster.isPrimary && config.WEB_CONCURRENCY > 1;
  const database = clustered ? await prepareDatabase(config, log) : null;
  const server = database ? await runCluster(config.WEB_CONCURRENCY, database, log) : await startServer(config, log, WEB_ROOT);
  if (cluster.isPrimary) {
    if (database?.hasDemoLogins ?? ('hasDemoLogins' in server && server.hasDemoLogins)) {
      log.info(
        {
          dj: `${DEMO_LOGINS.dj.email} / ${DEMO_LOGINS.dj.password}`,
          listener: `${DEMO_LOGINS.listener.email} / ${DEMO_LOGINS.listener.password}`,
        },
        'demo logins',
      );
    }
    log.info(
      {
        url: config.PUBLIC_URL,
        dataDir: config.DATA_DIR,
        database: config.DATABASE_URL ? 'DATABASE_URL' : 'embedded',
        processes: config.WEB_CONCURRENCY,
        ms: Date.now() - started,
      },
      'mixcrate is ready',
    );
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
