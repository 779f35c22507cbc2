import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import { entities } from './entities.js';
import { migrations } from './migrations/index.js';

export type Orm = MikroORM;

export async function openOrm(url: string, log?: Pick<FastifyBaseLogger, 'debug'>, debug = false): Promise<Orm> {
  return MikroORM.init({
    clientUrl: url,
    entities,
    extensions: [Migrator],
    pool: { min: 0, max: 10 },
    debug,
    logger: (message) => log?.debug({ orm: message }, 'orm'),
    migrations: { migrationsList: migrations, transactional: true, allOrNothing: true, snapshot: false },
    // Hand-written SQL functions and triggers (geo_earth, the media cache's notify trigger) live in migrations only.
    // The rate-limit counters (rate_limits, issue 19) are rate-limiter-flexible's table, created by a migration, mapped by no entity.
    schemaGenerator: { ignoreRoutines: true, ignoreTriggers: true, ignoreSchema: ['rate_limits'] },
    allowGlobalContext: false,
  });
}

export async function migrate(orm: Orm): Promise<void> {
  await orm.migrator.up();
}
