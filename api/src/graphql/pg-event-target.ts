import type { TypedEventListenerOrEventListenerObject, TypedEventTarget } from '@graphql-yoga/typed-event-target';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

const CHANNEL = 'mixcrate_events';
/** PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7_900;
const RECONNECT_MS = 1_000;

type Listener = (event: CustomEvent) => void;
type Registered = TypedEventListenerOrEventListenerObject<CustomEvent>;

export interface PgEventTarget extends TypedEventTarget<CustomEvent> {
  /** Resolves once this process hears events (so none published after it is missed). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * GraphQL subscription events through PostgreSQL LISTEN/NOTIFY: every API process (one, or a cluster of them) on the
 * same database hears every event, with no server beyond the database. Redis does the same when REDIS_URL is set.
 */
export function createPgEventTarget(connectionString: string, log: FastifyBaseLogger): PgEventTarget {
  // Keyed by what was registered, so removing an object listener finds the function made for it.
  const listeners = new Map<string, Map<unknown, Listener>>();
  const publisher = new pg.Pool({ connectionString, max: 2 });
  publisher.on('error', (error) => log.warn({ err: error }, 'event publisher connection failed'));
  let subscriber: pg.Client | null = null;
  let closed = false;
  let connecting: Promise<void> = Promise.resolve();

  const deliver = (payload: string | undefined) => {
    if (!payload) return;
    try {
      const { topic, detail } = JSON.parse(payload) as { topic: string; detail: unknown };
      const registered = listeners.get(topic);
      if (!registered) return;
      // One event for all of a topic's listeners: 20,000 sockets on one count would otherwise cost 20,000 events.
      const event = new CustomEvent(topic, { detail });
      for (const listener of registered.values()) listener(event);
    } catch (error) {
      log.warn({ err: error }, 'unreadable subscription event');
    }
  };

  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString });
    client.on('notification', (message) => deliver(message.payload));
    client.on('error', (error) => {
      log.warn({ err: error }, 'event listener connection failed; reconnecting');
      if (subscriber !== client) return;
      subscriber = null;
      void client.end().catch(() => undefined);
      if (!closed) setTimeout(reconnect, RECONNECT_MS).unref();
    });
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    subscriber = client;
  };
  const reconnect = () => {
    connecting = connect().catch((error) => {
      log.warn({ err: error }, 'event listener could not reconnect; retrying');
      if (!closed) setTimeout(reconnect, RECONNECT_MS).unref();
    });
  };
  connecting = connect();

  const callbackOf = (registered: Registered): Listener =>
    typeof registered === 'function' ? registered : registered.handleEvent.bind(registered);

  return {
    addEventListener(topic, callbackOrOptions) {
      if (!callbackOrOptions) return;
      let registered = listeners.get(topic);
      if (!registered) {
        registered = new Map();
        listeners.set(topic, registered);
      }
      registered.set(callbackOrOptions, callbackOf(callbackOrOptions as Registered));
    },
    removeEventListener(topic, callbackOrOptions) {
      if (!callbackOrOptions) return;
      const registered = listeners.get(topic);
      registered?.delete(callbackOrOptions);
      if (registered?.size === 0) listeners.delete(topic);
    },
    dispatchEvent(event) {
      const payload = JSON.stringify({ topic: event.type, detail: event.detail ?? null });
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
        log.warn({ topic: event.type, bytes: Buffer.byteLength(payload) }, 'subscription event too large to share; delivered here only');
        deliver(payload);
        return true;
      }
      publisher.query('select pg_notify($1, $2)', [CHANNEL, payload]).catch((error) => log.warn({ err: error }, 'event not published'));
      return true;
    },
    ready: () => connecting,
    async close() {
      closed = true;
      await subscriber?.end().catch(() => undefined);
      subscriber = null;
      await publisher.end().catch(() => undefined);
    },
  };
}
