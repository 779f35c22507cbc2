import { useApolloClient, useQuery, useSubscription } from '@apollo/client/react';
import { Link } from 'react-router';
import { FollowEventsDocument, UnreadNotificationCountDocument } from '../gql/graphql';
import styles from './AppShell.module.css';
import { BellIcon } from './icons/Icons';

/**
 * The header's bell: the member's unread notifications, live. Each follow event carries the new unread count, which
 * goes straight into the cache, and an open notifications list fetches its first page again.
 */
export function NotificationBell() {
  const client = useApolloClient();
  const { data } = useQuery(UnreadNotificationCountDocument);
  useSubscription(FollowEventsDocument, {
    onData: ({ data: event }) => {
      const unread = event.data?.followEvents.unreadCount;
      if (unread === undefined) return;
      client.writeQuery({ query: UnreadNotificationCountDocument, data: { unreadNotificationCount: unread } });
      void client.refetchQueries({ include: ['Notifications'] });
    },
  });
  const unread = data?.unreadNotificationCount ?? 0;
  const label = unread === 0 ? 'Notifications' : `Notifications, ${unread} unread`;
  return (
    <Link to="/notifications" className={styles.bell} aria-label={label} title={label}>
      <BellIcon width={22} height={22} />
      {unread > 0 ? (
        <span className={styles.badge} aria-hidden="true">
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </Link>
  );
}
