import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { OperationTypeNode } from 'graphql';
import { createClient } from 'graphql-ws';
import { readToken } from './storage';

/** Adds `Authorization: Bearer <token>` from localStorage 'token' to every operation, read at request time. */
export const authLink = new SetContextLink((previous) => {
  const token = readToken();
  if (!token) return {};
  return { headers: { ...previous.headers, authorization: `Bearer ${token}` } };
});

function webSocketUrl(path: string): string {
  const url = new URL(path, window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** Subscriptions (live listener counts) over graphql-ws on the same path; the socket opens on the first subscription. */
function subscriptionLink(uri: string): ApolloLink {
  return new GraphQLWsLink(
    createClient({
      url: webSocketUrl(uri),
      lazy: true,
      retryAttempts: Number.POSITIVE_INFINITY,
      connectionParams: () => {
        const token = readToken();
        return token ? { authorization: `Bearer ${token}` } : {};
      },
    }),
  );
}

const isSubscription = ({ query }: ApolloLink.Operation) => {
  const definition = getMainDefinition(query);
  return definition.kind === 'OperationDefinition' && definition.operation === OperationTypeNode.SUBSCRIPTION;
};

export function createApolloClient(uri = '/graphql'): ApolloClient {
  // Apollo Client sends content-type application/json, which the server's CSRF prevention requires.
  const http = ApolloLink.from([authLink, new HttpLink({ uri })]);
  const link = typeof WebSocket === 'undefined' ? http : ApolloLink.split(isSubscription, subscriptionLink(uri), http);
  return new ApolloClient({
    link,
    cache: new InMemoryCache({
      typePolicies: {
        // The viewer and a member are one person: share the cache entry where ids agree.
        Viewer: { keyFields: ['id'] },
      },
    }),
  });
}

let client: ApolloClient | undefined;

/** The app's one client, created on first use (the landing page never loads this module). */
export function apolloClient(): ApolloClient {
  client ??= createApolloClient();
  return client;
}
