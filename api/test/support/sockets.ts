import type { FastifyInstance } from 'fastify';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { waitFor } from './wait.js';

/** Listens on a free loopback port (once) and answers the graphql-ws address. */
export async function socketUrl(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return `ws://127.0.0.1:${port}/graphql`;
}

/**
 * Waits until `app` has `count` subscriptions hearing `topic` (`Topics.X`, or `Topics.X:id` for one mix or member). A
 * subscription sends nothing when it starts: a test that then causes an event must first know the server listens.
 */
export const subscribed = (app: FastifyInstance, topic: string, count = 1): Promise<number> =>
  waitFor(`${count} subscription(s) on ${topic} to be in place on the server`, () => app.subscriptionListeners(topic), {
    until: (listening) => listening >= count,
  });

export interface SocketMessage {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** One subscription through the real graphql-ws client: each message in turn, and how the socket closed, if it did. */
export interface Watch {
  client: Client;
  /** The next message (waits for it). */
  next(): Promise<SocketMessage>;
  /** The subscription's error, or undefined once it completes. */
  ended: Promise<unknown>;
  /** The close code, when the server closes the socket. */
  closed: Promise<number>;
  /** Resolves once the server has accepted the connection (its sign-in included). */
  connected: Promise<void>;
  stop(): Promise<void>;
}

export function watch(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  connectionParams: Record<string, unknown> = {},
): Watch {
  const queue: SocketMessage[] = [];
  const waiting: ((message: SocketMessage) => void)[] = [];
  let closedWith: (code: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (closedWith = resolve));
  let connectedNow: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => (connectedNow = resolve));
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    on: { closed: (event) => closedWith((event as { code: number }).code), connected: () => connectedNow() },
  });
  const ended = new Promise<unknown>((resolve) => {
    client.subscribe(
      { query, variables },
      {
        next: (message) => {
          const taker = waiting.shift();
          if (taker) taker(message as SocketMessage);
          else queue.push(message as SocketMessage);
        },
        error: resolve,
        complete: () => resolve(undefined),
      },
    );
  });
  return {
    client,
    next: () => {
      const queued = queue.shift();
      return queued ? Promise.resolve(queued) : new Promise((resolve) => waiting.push(resolve));
    },
    ended,
    closed,
    connected,
    stop: async () => {
      await client.dispose();
    },
  };
}
