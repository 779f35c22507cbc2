import { createClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { Failure, fail, statsOf } from './figures.js';
import { api } from './http.js';
import { pick, random } from './settings.js';
import { members, mixes } from './world.js';

/** Subscriptions: graphql-ws clients, each its own socket, each following one mix's listener count. */

interface Subscription {
  client: WsClient;
  mixId: string;
  closing: boolean;
}
export const subscriptions: Subscription[] = [];
/** Values the server pushed to the subscriptions. */
export const pushed = { count: 0 };
/** When the last change to a mix's listeners was sent: a push's delay is measured from it (roughly: changes overlap). */
export const lastListenChange = new Map<string, number>();

export function openSubscription(op: string): Promise<void> {
  const member = random() < 0.5 ? pick(members) : undefined;
  const address = member?.address ?? '127.0.0.1';
  const mix = pick(mixes);
  class FromAddress extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { localAddress: address });
    }
  }
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (error?: Failure) => {
      if (settled) return;
      settled = true;
      statsOf(op).ms.push(performance.now() - started);
      if (error) fail(op, error.status, error.detail);
      resolve();
    };
    const subscription: Subscription = {
      mixId: mix.id,
      closing: false,
      client: createClient({
        url: `${api.base.replace('http', 'ws')}/graphql`,
        webSocketImpl: FromAddress,
        lazy: false,
        retryAttempts: 0,
        connectionParams: member ? { authorization: `Bearer ${member.token}` } : {},
        on: {
          connected: () => settle(),
          closed: (event) => {
            if (subscription.closing) return;
            const { code, reason } = event as { code?: number; reason?: string };
            if (!settled) settle(new Failure(`ws close ${code}`, String(reason)));
            else fail('subscription held open', `ws close ${code}`, String(reason));
            const at = subscriptions.indexOf(subscription);
            if (at !== -1) subscriptions.splice(at, 1);
          },
          error: (error) => {
            if (!settled) settle(new Failure('ws error', (error as Error).message ?? String(error)));
          },
        },
      }),
    };
    subscriptions.push(subscription);
    subscription.client.subscribe(
      { query: 'subscription ($mixId: ID!) { mixListenerCount(mixId: $mixId) }', variables: { mixId: mix.id } },
      {
        next: (result) => {
          if (result.errors?.length) {
            fail('subscription push', 'graphql error', JSON.stringify(result.errors));
            return;
          }
          pushed.count += 1;
          const changed = lastListenChange.get(mix.id);
          if (changed !== undefined) statsOf('push: listen change -> subscriber (approx.)').ms.push(performance.now() - changed);
        },
        // A closed socket is reported by the client's `closed` above; here only errors the server sent for the operation.
        error: (error) => {
          if (!subscription.closing && Array.isArray(error))
            fail('subscription held open', 'subscription error', JSON.stringify(error).slice(0, 400));
        },
        complete: () => {
          if (!subscription.closing) fail('subscription held open', 'completed by server', 'the server completed the subscription');
        },
      },
    );
    setTimeout(() => settle(new Failure('timeout', 'no connection_ack within 10 s')), 10_000).unref();
  });
}

export async function closeSubscription(subscription: Subscription): Promise<void> {
  subscription.closing = true;
  const at = subscriptions.indexOf(subscription);
  if (at !== -1) subscriptions.splice(at, 1);
  await subscription.client.dispose();
}
