import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub } from '@graphql-yoga/subscription';
import type { TypedEventTarget } from '@graphql-yoga/typed-event-target';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { PubSub } from 'type-graphql';
import type { Listen } from './live-value.js';
import { createPgEventTarget } from './pg-event-target.js';

export interface ClosablePubSub {
  pubSub: PubSub;
  /** Hears a topic's payloads straight from the event target (one callback, no iterator in between). */
  listen: Listen;
  ready(): Promise<void>;
  close(): void | Promise<void>;
}

function listenerOf(eventTarget: TypedEventTarget<CustomEvent>): Listen {
  return (topic, listener) => {
    const callback = (event: CustomEvent) => listener(event.detail);
    eventTarget.addEventListener(topic, callback);
    return () => eventTarget.removeEventListener(topic, callback);
  };
}

/**
 * Events every API process hears, in a cluster or across machines: through Redis when REDIS_URL is set, otherwise
 * through the database's LISTEN/NOTIFY.
 */
export function createPubSubFor(redisUrl: string | undefined, databaseUrl: string, log: FastifyBaseLogger): ClosablePubSub {
  if (!redisUrl) {
    const eventTarget = createPgEventTarget(databaseUrl, log);
    return {
      pubSub: createPubSub({ eventTarget }) as PubSub,
      listen: listenerOf(eventTarget),
      ready: eventTarget.ready,
      close: eventTarget.close,
    };
  }
  const publishClient = new Redis(redisUrl);
  const subscribeClient = new Redis(redisUrl);
  const eventTarget = createRedisEventTarget<CustomEvent>({ publishClient, subscribeClient });
  return {
    pubSub: createPubSub({ eventTarget }) as PubSub,
    listen: listenerOf(eventTarget),
    ready: async () => undefined,
    close: () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
