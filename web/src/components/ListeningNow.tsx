import { useSubscription } from '@apollo/client/react';
import { MixListenerCountDocument } from '../gql/graphql';
import styles from './ListeningNow.module.css';

/**
 * "N listening now" for a mix, live: the page's own count first (server-rendered on shared pages), then what the
 * subscription pushes, which starts with the current count and follows every start, pause, end and silent player.
 */
export function ListeningNow({ mixId, initial }: { mixId: string; initial: number }) {
  const { data } = useSubscription(MixListenerCountDocument, { variables: { mixId }, skip: typeof window === 'undefined' });
  const count = data?.mixListenerCount ?? initial;
  return (
    <p className={styles.listeningNow}>
      <span className={[styles.dot, count > 0 ? styles.live : ''].join(' ')} aria-hidden="true" />
      <span>
        <strong>{count}</strong> listening now
      </span>
    </p>
  );
}
