import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub } from '@graphql-yoga/subscription';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { PubSub } from 'type-graphql';
import { createPgEventTarget } from './pg-event-target.js';

export interface ClosablePubSub {
  pubSub: PubSub;
  ready(): Promise<void>;
  close(): void | Promise<void>;
}

/**
 * Events every API process hears, in a cluster or across machines: through Redis when REDIS_URL is set, otherwise
 * through the database's LISTEN/NOTIFY.
 */
export function createPubSubFor(redisUrl: string | undefined, databaseUrl: string, log: FastifyBaseLogger): ClosablePubSub {
  if (!redisUrl) {
    const eventTarget = createPgEventTarget(databaseUrl, log);
    return { pubSub: createPubSub({ eventTarget }) as PubSub, ready: eventTarget.ready, close: eventTarget.close };
  }
  const publishClient = new Redis(redisUrl);
  const subscribeClient = new Redis(redisUrl);
  return {
    pubSub: createPubSub({ eventTarget: createRedisEventTarget({ publishClient, subscribeClient }) }) as PubSub,
    ready: async () => undefined,
    close: () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
