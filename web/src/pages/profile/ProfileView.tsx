import { useQuery } from '@apollo/client/react';
import type { ReactNode } from 'react';
import { Avatar } from '../../components/Avatar';
import buttons from '../../components/Button.module.css';
import { MixGrid } from '../../components/MixGrid';
import { Spinner } from '../../components/Spinner';
import { MixesByUserDocument, type ProfileFieldsFragment } from '../../gql/graphql';
import { formatDate, formatDistance, truncateForWidth } from '../../lib/format';
import { useWindowWidth } from '../../lib/use-window-width';
import styles from './Profile.module.css';

/** The mix card's delete refetches MixesByUser; the profile asks with the same variables so that refetch is this list. */
export const PROFILE_MIXES = 50;

function MemberMixes({ userName, shared }: { userName: string; shared: boolean }) {
  const { data, loading, refetch } = useQuery(MixesByUserDocument, { variables: { userName, first: PROFILE_MIXES } });
  const mixes = data?.mixesByUser.nodes;
  if (!mixes) {
    if (loading) return <Spinner label="Loading mixes" />;
    return (
      <p className={styles.error} role="alert">
        The mixes could not be loaded.{' '}
        <button type="button" className={buttons.secondary} onClick={() => void refetch().catch(() => undefined)}>
          Try again
        </button>
      </p>
    );
  }
  if (mixes.length === 0) return <p className={styles.muted}>No mixes yet.</p>;
  return <MixGrid mixes={mixes} shared={shared} label="Mixes" />;
}

/**
 * Profile (docs/profiles.md#profile-page): avatar, display name (or the 'No display name' placeholder), @user_name, user type, bio, joined
 * date, distance (only when given: other members, signed in), counts, the page's actions, and the member's mixes.
 */
export function ProfileView({
  user,
  shared,
  actions,
  showDistance,
}: {
  user: ProfileFieldsFragment;
  shared: boolean;
  actions?: ReactNode;
  showDistance: boolean;
}) {
  const windowWidth = useWindowWidth();
  const name = user.displayName || user.userName || 'Member';
  const shownName = user.displayName ? truncateForWidth(user.displayName, windowWidth) : null;
  const distance = showDistance ? formatDistance(user.distanceKm) : null;
  return (
    <div className={styles.page}>
      <section className={styles.header} aria-labelledby="profile-name">
        <Avatar imageUrl={user.imageUrl} name={name} size={132} />
        <div className={styles.details}>
          <h1
            id="profile-name"
            className={shownName ? styles.name : `${styles.name} ${styles.placeholder}`}
            title={shownName && shownName !== user.displayName ? user.displayName : undefined}
          >
            {shownName ?? 'No display name'}
          </h1>
          {user.userName ? <p className={styles.handle}>@{user.userName}</p> : null}
          <p className={styles.facts}>
            <span className={styles.type}>{user.userTypeLabel}</span>
            <span>Joined {formatDate(user.createdAt)}</span>
            {distance ? <span>{distance} away</span> : null}
          </p>
          {user.verifiedNames.length > 0 ? (
            <p className={styles.facts}>
              {user.verifiedNames.map((held) => (
                <span key={`${held.subject}-${held.name}`} className={styles.verified}>
                  <span aria-hidden="true">✓ </span>Verified {held.subject === 'LABEL' ? 'label' : 'creator'}: {held.name}
                </span>
              ))}
            </p>
          ) : null}
          <p className={styles.counts}>
            <strong>{user.followerCount}</strong> {user.followerCount === 1 ? 'follower' : 'followers'} ·{' '}
            <strong>{user.followingCount}</strong> following
          </p>
          {user.bio ? <p className={styles.bio}>{user.bio}</p> : null}
          {actions ? <div className={styles.actions}>{actions}</div> : null}
        </div>
      </section>
      {user.userName ? (
        <section aria-labelledby="profile-mixes">
          <h2 id="profile-mixes" className={styles.sectionTitle}>
            Mixes
          </h2>
          <MemberMixes userName={user.userName} shared={shared} />
        </section>
      ) : null}
    </div>
  );
}
