import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub } from '@graphql-yoga/subscription';
import { Redis } from 'ioredis';
import type { PubSub } from 'type-graphql';

export interface ClosablePubSub {
  pubSub: PubSub;
  close(): void;
}

/** In memory for one instance; through Redis when REDIS_URL is set, so many instances share events. */
export function createPubSubFor(redisUrl: string | undefined): ClosablePubSub {
  if (!redisUrl) return { pubSub: createPubSub() as PubSub, close: () => undefined };
  const publishClient = new Redis(redisUrl);
  const subscribeClient = new Redis(redisUrl);
  return {
    pubSub: createPubSub({ eventTarget: createRedisEventTarget({ publishClient, subscribeClient }) }) as PubSub,
    close: () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
