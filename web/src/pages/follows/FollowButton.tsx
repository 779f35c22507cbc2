import { useMutation } from '@apollo/client/react';
import buttons from '../../components/Button.module.css';
import { ToggleFollowDocument } from '../../gql/graphql';
import styles from './Follows.module.css';

/**
 * Follow toggle (docs/follows.md#the-follow-button): FOLLOWED shows 'Following', UNFOLLOWED shows 'Follow'; afterwards both lists reload from
 * the first page and the member's counts follow. The label itself says the state, so the button is not also a
 * pressed/unpressed toggle for screen readers.
 */
export function FollowButton({
  userId,
  following,
  name,
  compact = false,
}: {
  userId: string;
  following: boolean;
  name: string;
  compact?: boolean;
}) {
  const [toggle, { loading, error }] = useMutation(ToggleFollowDocument, {
    variables: { userId },
    refetchQueries: ['Following', 'Followers', 'Profile'],
    update(cache, { data }) {
      if (!data) return;
      cache.modify({
        id: cache.identify({ __typename: 'User', id: userId }),
        fields: {
          isFollowing: () => data.toggleFollow === 'FOLLOWED',
          followerCount: (count: number) => count + (data.toggleFollow === 'FOLLOWED' ? 1 : -1),
        },
      });
    },
  });
  return (
    <span className={styles.followWrap}>
      <button
        type="button"
        className={[following ? buttons.secondary : buttons.primary, compact ? styles.compactButton : ''].join(' ')}
        aria-label={`${following ? 'Following' : 'Follow'} ${name}`}
        disabled={loading}
        onClick={() => toggle().catch(() => undefined)}
      >
        {following ? 'Following' : 'Follow'}
      </button>
      {error ? (
        <span className={styles.error} role="alert">
          {error.message}
        </span>
      ) : null}
    </span>
  );
}
