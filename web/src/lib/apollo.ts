import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { readToken } from './storage';

/** Adds `Authorization: Bearer <token>` from localStorage 'token' to every operation, read at request time. */
export const authLink = new SetContextLink((previous) => {
  const token = readToken();
  if (!token) return {};
  return { headers: { ...previous.headers, authorization: `Bearer ${token}` } };
});

export function createApolloClient(uri = '/graphql'): ApolloClient {
  return new ApolloClient({
    // Apollo Client sends content-type application/json, which the server's CSRF prevention requires.
    link: ApolloLink.from([authLink, new HttpLink({ uri })]),
    cache: new InMemoryCache(),
  });
}

let client: ApolloClient | undefined;

/** The app's one client, created on first use (the landing page never loads this module). */
export function apolloClient(): ApolloClient {
  client ??= createApolloClient();
  return client;
}
