import { ApolloProvider } from '@apollo/client/react';
import { useContext, useEffect, useRef } from 'react';
import { Outlet } from 'react-router';
import { useAuth } from '../auth/auth';
import { ListenReporter } from '../player/ListenReporter';
import { PlayerBar } from '../player/PlayerBar';
import { usePlayer } from '../player/PlayerProvider';
import { apolloClient, reconnectSubscriptions, ServerRenderClient } from './apollo';
import styles from './GraphQLBoundary.module.css';

/**
 * Layout route that provides Apollo to the screens under it, with the player bar and its listen reporting. It is
 * lazy-loaded, so the landing page does not download Apollo. A change of session (sign in, sign out) refetches what
 * is on screen with the new session.
 */
export function GraphQLBoundary() {
  const client = useContext(ServerRenderClient) ?? apolloClient();
  const { token } = useAuth();
  const { mix } = usePlayer();
  const previous = useRef(token);
  useEffect(() => {
    if (previous.current === token) return;
    previous.current = token;
    reconnectSubscriptions();
    // resetStore refetches the queries on screen; clearStore would leave a query started in this render waiting forever.
    void client.resetStore().catch(() => undefined);
  }, [client, token]);
  return (
    <ApolloProvider client={client}>
      <div className={mix ? `${styles.content} ${styles.withPlayer}` : styles.content}>
        <Outlet />
      </div>
      <ListenReporter />
      <PlayerBar />
    </ApolloProvider>
  );
}
