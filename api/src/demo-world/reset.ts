/**
 * `npm run demo:reset`: removes the demo world and builds it again, in the database the server uses (DATABASE_URL or
 * the embedded one under DATA_DIR). Stop the server first when it runs on the embedded database.
 */
import pino from 'pino';
import { ConfigError, loadConfig } from '../config.js';
import { openOrm } from '../db/orm.js';
import { prepareDatabase } from '../server.js';
import { createStorage } from '../storage/storage-factory.js';
import { loadDemoCatalogueOnce, loadDemoWorld, removeDemoWorld } from './loader.js';
import { demoLoginsToLog } from './plan.js';

async function reset(): Promise<void> {
  const config = loadConfig({ ...process.env, DEMO: '0' });
  const log = pino({ level: config.LOG_LEVEL });
  const database = await prepareDatabase(config, log);
  const orm = await openOrm(database.url, log);
  try {
    const storage = createStorage(config);
    await removeDemoWorld({ orm, storage });
    log.info('removed the demo world');
    await loadDemoWorld({ orm, storage, log }, false);
    await loadDemoCatalogueOnce({ orm, log });
    log.info(demoLoginsToLog(config.isProduction), 'demo logins');
  } finally {
    await orm.close();
    await database.stop();
  }
}

reset().catch((error) => {
  process.stderr.write(
    `demo:reset failed: ${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
