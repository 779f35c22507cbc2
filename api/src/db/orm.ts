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
    // JIT off for every statement, in the startup packet (no round trip): ours are index probes and short joins that
    // finish in a few milliseconds, and the planner's JIT compiles a statement once its cost estimate passes
    // jit_above_cost, which the catalogue lookup's does at 1,000,000 tracks; compiling then takes longer (about 50 ms)
    // than the statement itself. Nothing we run is the long CPU-bound analytic query JIT pays off on.
    driverOptions: { options: '-c jit=off' },
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
