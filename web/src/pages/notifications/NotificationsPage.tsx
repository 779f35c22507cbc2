import { useMutation, useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { AppShell } from '../../components/AppShell';
import { Avatar } from '../../components/Avatar';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import {
  MarkAllNotificationsReadDocument,
  MarkNotificationReadDocument,
  type NotificationFieldsFragment,
  NotificationsDocument,
  UnreadNotificationCountDocument,
} from '../../gql/graphql';
import { formatDistance } from '../../lib/format';
import { useDateLabel } from '../../lib/use-date-label';
import styles from './Notifications.module.css';
import { trustNotice } from './trust-notifications';

const PAGE_SIZE = 20;

function NotificationRow({ notification }: { notification: NotificationFieldsFragment }) {
  const { actor } = notification;
  const name = actor.displayName || actor.userName || 'Someone';
  const date = useDateLabel(notification.createdAt);
  const distance = formatDistance(actor.distanceKm);
  const unread = !notification.readAt;
  const [markRead, { loading }] = useMutation(MarkNotificationReadDocument, { refetchQueries: [UnreadNotificationCountDocument] });
  const what = notification.kind === 'FOLLOWED' ? 'followed you' : 'unfollowed you';
  const trust = trustNotice(notification.kind, notification.detail);
  // Claim decisions and trust notices are about the member's own things: they read as a sentence, not "{who} {did}".
  const claim = notification.kind === 'CLAIM_APPROVED' || notification.kind === 'CLAIM_REJECTED' || trust !== null;
  const claimWords =
    trust?.text ??
    (notification.kind === 'CLAIM_APPROVED'
      ? `You are verified as ${notification.detail ?? 'the name you claimed'}`
      : `Your claim on ${notification.detail ?? 'a name'} was not approved`);
  return (
    <li className={[styles.item, unread ? styles.unread : ''].join(' ')}>
      <Avatar imageUrl={actor.imageUrl} name={name} size={44} />
      <span className={styles.text}>
        <span>
          {trust ? (
            <Link to={trust.to} className={styles.who}>
              {claimWords}
            </Link>
          ) : claim ? (
            claimWords
          ) : actor.userName ? (
            <Link to={`/profile/${actor.userName}`} className={styles.who}>
              {name}
            </Link>
          ) : (
            <strong>{name}</strong>
          )}
          {claim ? null : ` ${what}`}
          {unread ? <span className={styles.visuallyHidden}> (unread)</span> : null}
        </span>
        <span className={styles.muted}>
          {actor.userTypeLabel}
          {distance ? ` · ${distance} away` : ''} · {date}
        </span>
      </span>
      {unread ? (
        <span className={styles.actions}>
          <span className={styles.unreadMark} aria-hidden="true" />
          <button
            type="button"
            className={buttons.secondary}
            disabled={loading}
            onClick={() => void markRead({ variables: { id: notification.id } }).catch(() => undefined)}
            aria-label={claim ? `Mark read: ${claimWords}` : `Mark read: ${name} ${what}`}
          >
            Mark read
          </button>
        </span>
      ) : null}
    </li>
  );
}

/** The member's notifications (follows and unfollows), newest first, with unread ones marked; live while open. */
export function NotificationsPage() {
  const { data, loading, error, refetch, fetchMore } = useQuery(NotificationsDocument, {
    variables: { first: PAGE_SIZE },
    notifyOnNetworkStatusChange: true,
  });
  const [markAll, markingAll] = useMutation(MarkAllNotificationsReadDocument, {
    refetchQueries: [UnreadNotificationCountDocument, 'Notifications'],
  });
  const page = data?.notifications;

  return (
    <AppShell label="Notifications" columns={1}>
      <div className={styles.page}>
        <div className={styles.pageHeader}>
          <h1 className={styles.heading}>Notifications</h1>
          {page && page.unreadCount > 0 ? (
            <button
              type="button"
              className={buttons.secondary}
              disabled={markingAll.loading}
              onClick={() => void markAll().catch(() => undefined)}
            >
              Mark all as read
            </button>
          ) : null}
        </div>
        {page ? (
          <p className={styles.muted} aria-live="polite">
            {page.unreadCount === 0 ? 'All read.' : `${page.unreadCount} unread`}
          </p>
        ) : null}
        {markingAll.error ? (
          <p className={styles.error} role="alert">
            {markingAll.error.message}
          </p>
        ) : null}
        {page ? (
          page.nodes.length === 0 ? (
            <p className={styles.empty}>No notifications yet. When someone follows you, you will see it here.</p>
          ) : (
            <>
              <ul className={styles.list} aria-label="Notifications">
                {page.nodes.map((notification) => (
                  <NotificationRow key={notification.id} notification={notification} />
                ))}
              </ul>
              {page.pageInfo.hasNextPage ? (
                <button
                  type="button"
                  className={buttons.secondary}
                  disabled={loading}
                  onClick={() =>
                    void fetchMore({
                      variables: { after: page.pageInfo.endCursor },
                      updateQuery: (previous, { fetchMoreResult }) => ({
                        notifications: {
                          ...fetchMoreResult.notifications,
                          nodes: [...previous.notifications.nodes, ...fetchMoreResult.notifications.nodes],
                        },
                      }),
                    })
                  }
                >
                  {loading ? 'Loading…' : 'Show older'}
                </button>
              ) : null}
            </>
          )
        ) : loading ? (
          <Spinner label="Loading notifications" />
        ) : error ? (
          <div role="alert">
            <p className={styles.error}>Your notifications could not be loaded.</p>
            <button type="button" className={buttons.secondary} onClick={() => void refetch()}>
              Try again
            </button>
          </div>
        ) : null}
      </div>
    </AppShell>
  );
}
