import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../components/Avatar';
import type { MemberRowFragment } from '../../gql/graphql';
import { formatDistance, truncateForWidth } from '../../lib/format';
import { useWindowWidth } from '../../lib/use-window-width';
import { FollowButton } from './FollowButton';
import styles from './Follows.module.css';
import { followsTypeLabel } from './member-labels';

/** Rows fade in with a 0.05 s stagger per row (docs/rules.md#timings). */
export const ROW_STAGGER_SECONDS = 0.05;
/** The 350 px sidebar holds names as a 400 px window does (width table, see docs/rules.md#display-formats), whatever the window's width. */
const SIDEBAR_WIDTH_FOR_NAMES = 420;

export interface MemberEdge {
  distanceKm?: number | null;
  node: MemberRowFragment;
}

/**
 * Member rows: image (or placeholder) and name opening the profile, user type, distance, follow button (docs/follows.md#the-follows-screen).
 * The stagger restarts with every page, so rows added by 'Load more' do not wait for the rows above them.
 */
export function MemberList({
  edges,
  compact = false,
  pageSize = edges.length,
}: {
  edges: readonly MemberEdge[];
  compact?: boolean;
  pageSize?: number;
}) {
  const windowWidth = useWindowWidth();
  const nameWidth = compact ? Math.min(windowWidth, SIDEBAR_WIDTH_FOR_NAMES) : windowWidth;
  return (
    <ul className={styles.members}>
      {edges.map(({ node, distanceKm }, index) => {
        const name = node.displayName || node.userName || 'Member';
        const shownName = truncateForWidth(name, nameWidth);
        const distance = formatDistance(distanceKm);
        const delay = { '--row-delay': `${(index % Math.max(1, pageSize)) * ROW_STAGGER_SECONDS}s` } as CSSProperties;
        const avatar = <Avatar imageUrl={node.imageUrl} name={name} size={compact ? 40 : 52} />;
        return (
          <li key={node.id} className={styles.member} style={delay}>
            {node.userName ? (
              <Link to={`/profile/${node.userName}`} className={styles.memberImage} tabIndex={-1} aria-hidden="true">
                {avatar}
              </Link>
            ) : (
              avatar
            )}
            <span className={styles.memberText}>
              {node.userName ? (
                <Link to={`/profile/${node.userName}`} className={styles.memberName} title={shownName === name ? undefined : name}>
                  {shownName}
                </Link>
              ) : (
                <span className={styles.memberName}>{shownName}</span>
              )}
              <span className={styles.muted}>
                {followsTypeLabel(node.userType)}
                {distance ? ` · ${distance}` : ''}
              </span>
            </span>
            {typeof node.isFollowing === 'boolean' ? (
              <FollowButton userId={node.id} following={node.isFollowing} name={name} compact />
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
