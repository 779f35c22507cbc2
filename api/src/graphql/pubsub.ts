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
  /**
   * How many listeners this process has on `topic` (`ROUTING_KEY` or `ROUTING_KEY:id`): a subscriber is in place once
   * counted here (with Redis, once its channel is subscribed too), so tests wait on this, not on a clock.
   */
  listenerCount(topic: string): number;
  close(): void | Promise<void>;
}

/**
 * The event target, counting each topic's listeners once they hear: `heard` resolves once events published from now on
 * reach a listener just added (with Redis, once the SUBSCRIBE it caused is answered).
 */
function counting(target: TypedEventTarget<CustomEvent>, heard: () => Promise<unknown>) {
  const added = new Map<string, Set<unknown>>();
  const hearing = new Map<string, Set<unknown>>();
  const setOf = (sets: Map<string, Set<unknown>>, topic: string) => {
    let set = sets.get(topic);
    if (!set) {
      set = new Set();
      sets.set(topic, set);
    }
    return set;
  };
  const forget = (sets: Map<string, Set<unknown>>, topic: string, listener: unknown) => {
    const set = sets.get(topic);
    set?.delete(listener);
    if (set?.size === 0) sets.delete(topic);
  };
  const eventTarget: TypedEventTarget<CustomEvent> = {
    addEventListener(topic, listener) {
      target.addEventListener(topic, listener);
      if (!listener) return;
      setOf(added, topic).add(listener);
      heard().then(
        () => {
          if (added.get(topic)?.has(listener)) setOf(hearing, topic).add(listener);
        },
        () => undefined,
      );
    },
    removeEventListener(topic, listener) {
      target.removeEventListener(topic, listener);
      forget(added, topic, listener);
      forget(hearing, topic, listener);
    },
    dispatchEvent: (event) => target.dispatchEvent(event),
  };
  return { eventTarget, listenerCount: (topic: string) => hearing.get(topic)?.size ?? 0 };
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
    const database = createPgEventTarget(databaseUrl, log);
    // Every event on the database's channel reaches this process already (see ready): a listener hears at once.
    const { eventTarget, listenerCount } = counting(database, async () => undefined);
    return {
      pubSub: createPubSub({ eventTarget }) as PubSub,
      listen: listenerOf(eventTarget),
      ready: database.ready,
      listenerCount,
      close: database.close,
    };
  }
  const publishClient = new Redis(redisUrl);
  const subscribeClient = new Redis(redisUrl);
  // Commands on one connection are answered in order: a PING sent after a SUBSCRIBE is answered after it.
  const { eventTarget, listenerCount } = counting(createRedisEventTarget<CustomEvent>({ publishClient, subscribeClient }), () =>
    subscribeClient.ping(),
  );
  return {
    pubSub: createPubSub({ eventTarget }) as PubSub,
    listen: listenerOf(eventTarget),
    ready: async () => undefined,
    listenerCount,
    close: () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
