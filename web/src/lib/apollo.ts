import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { ErrorLink } from '@apollo/client/link/error';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { OperationTypeNode } from 'graphql';
import { createClient } from 'graphql-ws';
import { createContext } from 'react';
import { SESSION_REFUSED_EVENT } from '../auth/auth';
import { AUTH_HEADER, authHeaders } from './auth-headers';
import { takeServerState } from './server-state';
import { readToken } from './storage';

/** Adds the sign-in (authHeaders) from localStorage 'token' to every operation, read at request time. */
export const authLink = new SetContextLink((previous) => ({ headers: { ...previous.headers, ...authHeaders() } }));

/**
 * The API answers HTTP 401 only when it refuses the request's token (the session ended or expired), before running the
 * operation; an operation's own errors come with 200. Then the app is told (it signs out here), and the operation is sent
 * once more without the token: signing in again, or anything public, works at the first try.
 */
export const sessionRefusedLink = new ErrorLink(({ operation, forward }) => {
  const { response, headers, sentWithoutToken } = operation.getContext();
  if (response?.status !== 401 || sentWithoutToken) return;
  window.dispatchEvent(new Event(SESSION_REFUSED_EVENT));
  const others = Object.fromEntries(Object.entries((headers ?? {}) as Record<string, string>).filter(([name]) => name !== AUTH_HEADER));
  operation.setContext({ headers: others, sentWithoutToken: true });
  return forward(operation);
});

function webSocketUrl(path: string): string {
  const url = new URL(path, window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

let socketClient: ReturnType<typeof createClient> | undefined;

/**
 * Subscriptions (live counts, follow events) over graphql-ws on the same path; the socket opens on the first
 * subscription. The server reads the sign-in once per socket, from the connection parameters.
 */
function subscriptionLink(uri: string): ApolloLink {
  socketClient = createClient({
    url: webSocketUrl(uri),
    lazy: true,
    retryAttempts: Number.POSITIVE_INFINITY,
    // A socket has no headers: the server reads the token from the `token` connection parameter.
    connectionParams: () => {
      const token = readToken();
      return token ? { token } : {};
    },
  });
  return new GraphQLWsLink(socketClient);
}

/** After a sign-in or sign-out: the socket reconnects with the new session, and its subscriptions resume on it. */
export function reconnectSubscriptions(): void {
  socketClient?.terminate();
}

const isSubscription = ({ query }: ApolloLink.Operation) => {
  const definition = getMainDefinition(query);
  return definition.kind === 'OperationDefinition' && definition.operation === OperationTypeNode.SUBSCRIPTION;
};

export function createCache(): InMemoryCache {
  return new InMemoryCache({
    typePolicies: {
      // The viewer and a member are one person: share the cache entry where ids agree.
      Viewer: { keyFields: ['id'] },
    },
  });
}

/** What the API lets shared caches keep for visitors (its CACHEABLE_OPERATIONS, docs/public-api.md#caching). */
const CACHEABLE_OPERATIONS = new Set(['Feed', 'MixPage', 'PlayerMix', 'MixesByUser']);

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A visitor's feed and mix pages go as GETs of persisted queries (the query's hash in the URL), which a CDN can answer;
 * a signed-in member's requests carry their token and go as POSTs, never cached. Without `crypto.subtle` (a page
 * served over plain HTTP from another host) everything is a POST.
 */
export const sendsAsCacheableGet = (operationName: string | undefined, signedIn: boolean): boolean =>
  !signedIn && CACHEABLE_OPERATIONS.has(operationName ?? '') && globalThis.crypto?.subtle !== undefined;

function cacheableGetLink(uri: string): ApolloLink {
  return ApolloLink.from([
    // A GET has no content type: this header is what the server's CSRF prevention asks of it instead.
    new SetContextLink((previous, operation) => ({
      headers: { ...previous.headers, 'x-apollo-operation-name': operation.operationName ?? '' },
    })),
    new PersistedQueryLink({ sha256: sha256Hex, useGETForHashedQueries: true }),
    new HttpLink({ uri }),
  ]);
}

export function createApolloClient(uri = '/graphql'): ApolloClient {
  // Apollo Client sends content-type application/json, which the server's CSRF prevention requires.
  const post = ApolloLink.from([sessionRefusedLink, authLink, new HttpLink({ uri })]);
  const http = ApolloLink.split(
    (operation) => sendsAsCacheableGet(operation.operationName, readToken() !== null),
    cacheableGetLink(uri),
    post,
  );
  const link = typeof WebSocket === 'undefined' ? http : ApolloLink.split(isSubscription, subscriptionLink(uri), http);
  return new ApolloClient({ link, cache: createCache() });
}

let client: ApolloClient | undefined;

/**
 * The app's one client, created on first use (the landing page never loads this module). On a server-rendered page it
 * starts with what the server rendered, so hydration finds the same data and sends no request for it.
 */
export function apolloClient(): ApolloClient {
  if (!client) {
    client = createApolloClient();
    const state = takeServerState();
    if (state) client.cache.restore(state as Parameters<InMemoryCache['restore']>[0]);
  }
  return client;
}

/** A server render's own client (one per request, see src/server/render.tsx); null in the browser, which uses apolloClient(). */
export const ServerRenderClient = createContext<ApolloClient | null>(null);
