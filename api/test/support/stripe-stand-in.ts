import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the parts of Stripe's API the payments module calls (Checkout sessions, subscriptions, billing
 * portal sessions; Connect Express accounts, account links and transfers, with Stripe's idempotency keys), for the real `stripe` SDK pointed at it (host/port/protocol). Objects have the fields the SDK's
 * types and our code read. Helpers play the customer's part (paying) and Stripe's (signed webhook events).
 */

type Json = Record<string, unknown>;

export interface StandInRequest {
  method: string;
  path: string;
  /** The form body as the SDK encoded it, decoded into nested objects. */
  body: Json;
}

export interface StripeStandIn {
  url: string;
  requests: StandInRequest[];
  sessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  accounts: Map<string, Json>;
  /** Transfers made, by id (a request repeating an idempotency key makes none). */
  transfers: Map<string, Json>;
  /** How many of the next transfer requests Stripe refuses (balance_insufficient, a 400 the SDK does not retry). */
  failTransfers: number;
  /** The creator finishes Express onboarding: the account may be paid (what `account.updated` then says). */
  enableAccount(accountId: string): Json;
  /** The customer pays a session: complete and paid (for a subscription, an active subscription for a month). */
  pay(sessionId: string, options?: { paymentStatus?: 'paid' | 'unpaid' }): Json;
  /** A paid invoice of the subscription for its current period. */
  invoice(subscriptionId: string, amountCents: number): Json;
  setSubscription(subscriptionId: string, changes: Json): Json;
  /** An event as Stripe sends it, signed with `secret` (generateTestHeaderString), ready to post to the webhook. */
  signedEvent(
    type: string,
    object: Json,
    secret: string,
    options?: { id?: string; created?: number },
  ): { payload: string; signature: string; id: string };
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const MONTH_SECONDS = 30 * 24 * 60 * 60;

/** `a[0][b]=1&c=2` into `{ a: [{ b: '1' }], c: '2' }` (indices make arrays). */
export function decodeForm(text: string): Json {
  const root: Json = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const keys = rawKey.replace(/\]/g, '').split('[');
    let node: Json | unknown[] = root;
    keys.forEach((key, index) => {
      const last = index === keys.length - 1;
      const container = node as Record<string, unknown>;
      if (last) container[key] = value;
      else {
        container[key] ??= /^\d+$/.test(keys[index + 1] ?? '') ? [] : {};
        node = container[key] as Json;
      }
    });
  }
  return root;
}

async function read(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StandInRequest[] = [];
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const portals = new Map<string, Json>();
  const accounts = new Map<string, Json>();
  const transfers = new Map<string, Json>();
  const idempotent = new Map<string, Json>();

  const send = (response: ServerResponse, status: number, body: Json) => {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    response.end(JSON.stringify(body));
  };
  const missing = (response: ServerResponse, what: string) =>
    send(response, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } });

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const body = decodeForm(await read(request));
    requests.push({ method: request.method ?? 'GET', path: url.pathname, body });
    const [, version, resource, second, third] = url.pathname.split('/');
    if (version !== 'v1') return missing(response, 'route');
    const key = request.headers['idempotency-key'];
    const replay = typeof key === 'string' ? idempotent.get(`${url.pathname}:${key}`) : undefined;
    if (request.method === 'POST' && replay) return send(response, 200, replay);
    const remember = (object: Json) => {
      if (typeof key === 'string') idempotent.set(`${url.pathname}:${key}`, object);
      return send(response, 200, object);
    };
    if (resource === 'accounts' && request.method === 'POST' && !second) {
      const account: Json = {
        id: id('acct'),
        object: 'account',
        type: body.type,
        email: body.email ?? null,
        metadata: body.metadata ?? {},
        payouts_enabled: false,
        charges_enabled: false,
        details_submitted: false,
      };
      accounts.set(account.id as string, account);
      return remember(account);
    }
    if (resource === 'account_links' && request.method === 'POST') {
      if (!accounts.has(String(body.account))) return missing(response, `account: '${body.account}'`);
      return remember({
        object: 'account_link',
        created: now(),
        expires_at: now() + 300,
        url: `https://connect.stripe.test/setup/e/${body.account}/${id('link')}`,
      });
    }
    if (resource === 'transfers' && request.method === 'POST') {
      if (standIn.failTransfers > 0) {
        standIn.failTransfers -= 1;
        return send(response, 400, {
          error: { type: 'invalid_request_error', code: 'balance_insufficient', message: 'Insufficient funds in Stripe account' },
        });
      }
      if (!accounts.get(String(body.destination))?.payouts_enabled) return missing(response, `destination: '${body.destination}'`);
      const transfer: Json = {
        id: id('tr'),
        object: 'transfer',
        amount: Number(body.amount),
        currency: body.currency,
        destination: body.destination,
        transfer_group: body.transfer_group ?? null,
        metadata: body.metadata ?? {},
        created: now(),
      };
      transfers.set(transfer.id as string, transfer);
      return remember(transfer);
    }
    if (resource === 'checkout' && second === 'sessions' && request.method === 'POST' && !third) {
      const lineItem = (body.line_items as Json[] | undefined)?.[0] ?? {};
      const price = (lineItem.price_data ?? {}) as Json;
      const session: Json = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: body.mode,
        status: 'open',
        payment_status: 'unpaid',
        url: `https://checkout.stripe.test/c/pay/${id('cs')}`,
        metadata: body.metadata ?? {},
        client_reference_id: body.client_reference_id ?? null,
        customer: body.customer ?? null,
        customer_email: body.customer_email ?? null,
        amount_total: Number(price.unit_amount ?? 0),
        currency: price.currency ?? 'usd',
        subscription: null,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        subscription_data: body.subscription_data ?? null,
      };
      sessions.set(session.id as string, session);
      return send(response, 200, session);
    }
    if (resource === 'checkout' && second === 'sessions' && request.method === 'GET' && third) {
      const session = sessions.get(third);
      return session ? send(response, 200, session) : missing(response, `checkout.session: '${third}'`);
    }
    if (resource === 'subscriptions' && request.method === 'GET' && second) {
      const subscription = subscriptions.get(second);
      return subscription ? send(response, 200, subscription) : missing(response, `subscription: '${second}'`);
    }
    if (resource === 'billing_portal' && second === 'sessions' && request.method === 'POST') {
      const portal = {
        id: id('bps'),
        object: 'billing_portal.session',
        customer: body.customer,
        return_url: body.return_url,
        url: `https://billing.stripe.test/p/session/${id('test')}`,
      };
      portals.set(portal.id, portal);
      return send(response, 200, portal);
    }
    return missing(response, 'route');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const standIn: StripeStandIn = {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    subscriptions,
    accounts,
    transfers,
    failTransfers: 0,
    enableAccount(accountId) {
      const account = accounts.get(accountId);
      if (!account) throw new Error(`no account ${accountId}`);
      Object.assign(account, { payouts_enabled: true, charges_enabled: true, details_submitted: true });
      return account;
    },
    pay(sessionId, options = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = options.paymentStatus ?? 'paid';
      session.customer ??= id('cus');
      if (session.mode === 'subscription' && !session.subscription) {
        const start = now();
        const subscription: Json = {
          id: id('sub'),
          object: 'subscription',
          status: 'active',
          customer: session.customer,
          metadata: ((session.subscription_data as Json | null)?.metadata as Json | undefined) ?? {},
          cancel_at_period_end: false,
          ended_at: null,
          canceled_at: null,
          items: {
            object: 'list',
            data: [{ id: id('si'), object: 'subscription_item', current_period_start: start, current_period_end: start + MONTH_SECONDS }],
          },
        };
        subscriptions.set(subscription.id as string, subscription);
        session.subscription = subscription.id;
      }
      return session;
    },
    invoice(subscriptionId, amountCents) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
      const item = (subscription.items as { data: Json[] }).data[0];
      return {
        id: id('in'),
        object: 'invoice',
        status: 'paid',
        amount_paid: amountCents,
        currency: 'usd',
        customer: subscription.customer,
        parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId, metadata: subscription.metadata } },
        lines: {
          object: 'list',
          data: [
            {
              id: id('il'),
              object: 'line_item',
              amount: amountCents,
              period: { start: item.current_period_start, end: item.current_period_end },
            },
          ],
        },
        status_transitions: { paid_at: now() },
      };
    },
    setSubscription(subscriptionId, changes) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
      Object.assign(subscription, changes);
      return subscription;
    },
    signedEvent(type, object, secret, options = {}) {
      const eventId = options.id ?? id('evt');
      const payload = JSON.stringify({
        id: eventId,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: options.created ?? now(),
        type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: structuredClone(object) },
      });
      return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }), id: eventId };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return standIn;
}
