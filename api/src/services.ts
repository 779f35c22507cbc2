import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Orm } from './db/orm.js';
import { AuthService } from './modules/auth/auth.service.js';
import { RateLimits } from './modules/auth/rate-limits.js';
import { TokenService } from './modules/auth/tokens.js';
import { Mailer } from './modules/mail/mailer.js';
import { LocalStorage, type StorageDriver } from './modules/media/storage.js';
import { MixesService } from './modules/mixes/mixes.service.js';
import { UsersService } from './modules/users/users.service.js';

export interface Services {
  config: Config;
  orm: Orm;
  storage: StorageDriver;
  auth: AuthService;
  users: UsersService;
  mixes: MixesService;
  close(): Promise<void>;
}

/** Wires every domain service once; GraphQL resolvers and REST routes both call these. */
export async function createServices(config: Config, orm: Orm, log: FastifyBaseLogger): Promise<Services> {
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2 }) : undefined;
  const tokens = await TokenService.create(config.JWT_SECRET, config.DATA_DIR, config.JWT_TTL);
  const mailer = new Mailer(config.SMTP_URL, config.MAIL_FROM, join(config.DATA_DIR, 'outbox'), log);
  const storage = new LocalStorage(join(config.DATA_DIR, 'media'));
  return {
    config,
    orm,
    storage,
    auth: new AuthService(orm, tokens, new RateLimits(redis), mailer, config.PUBLIC_URL),
    users: new UsersService(orm, storage),
    mixes: new MixesService(orm),
    async close() {
      mailer.close();
      redis?.disconnect();
    },
  };
}
