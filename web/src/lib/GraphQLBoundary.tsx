import { ApolloProvider } from '@apollo/client/react';
import { useEffect, useRef } from 'react';
import { Outlet } from 'react-router';
import { useAuth } from '../auth/auth';
import { apolloClient } from './apollo';

/**
 * Layout route that provides Apollo to the screens under it. It is lazy-loaded, so screens that never talk to the API
 * (the landing page, not found) do not download Apollo. A change of session (sign in, sign out) empties the cache.
 */
export function GraphQLBoundary() {
  const client = apolloClient();
  const { token } = useAuth();
  const previous = useRef(token);
  useEffect(() => {
    if (previous.current === token) return;
    previous.current = token;
    void client.clearStore();
  }, [client, token]);
  return (
    <ApolloProvider client={client}>
      <Outlet />
    </ApolloProvider>
  );
}
