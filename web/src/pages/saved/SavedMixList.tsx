import { useMutation, useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { CloseIcon } from '../../components/icons/Icons';
import { Spinner } from '../../components/Spinner';
import { RemoveSavedMixDocument, SavedMixesDocument } from '../../gql/graphql';
import { formatDate, truncateForWidth } from '../../lib/format';
import { useWindowWidth } from '../../lib/use-window-width';
import styles from './SavedMixes.module.css';

function RemoveButton({ mixId, title }: { mixId: string; title: string }) {
  const [remove, { loading }] = useMutation(RemoveSavedMixDocument, {
    variables: { mixId },
    refetchQueries: [{ query: SavedMixesDocument }],
    awaitRefetchQueries: true,
    update(cache) {
      cache.modify({ id: cache.identify({ __typename: 'Mix', id: mixId }), fields: { savedByMe: () => false } });
    },
  });
  return (
    <button
      type="button"
      className={styles.remove}
      onClick={() => remove().catch(() => undefined)}
      disabled={loading}
      aria-label={`Remove ${title} from saved mixes`}
    >
      {loading ? <Spinner size="small" label="Removing" /> : <CloseIcon width={18} height={18} />}
    </button>
  );
}

/**
 * Saved mixes, newest first (docs/library.md#saved-mixes): cover, title cut by window width, creator linking to the profile, 'Published:'
 * date, remove button; rows open the mix. `compact` is the home page's sidebar.
 */
export function SavedMixList({ compact = false }: { compact?: boolean }) {
  const { data, loading, error, refetch } = useQuery(SavedMixesDocument, { fetchPolicy: 'cache-and-network' });
  const width = useWindowWidth();
  const mixes = data?.me?.savedMixes.nodes;
  // The sidebar is 350 px wide whatever the window: cut titles as for a narrow window there.
  const titleWidth = compact ? 420 : width;

  if (!mixes) {
    if (loading) return <Spinner label="Loading saved mixes" />;
    if (error)
      return (
        <p className={styles.error} role="alert">
          Saved mixes could not be loaded.{' '}
          <button type="button" className={styles.linkButton} onClick={() => void refetch()}>
            Try again
          </button>
        </p>
      );
  }
  if (!mixes || mixes.length === 0) return <p className={styles.empty}>No saved mixes yet</p>;

  return (
    <ul className={compact ? styles.compactList : styles.list}>
      {mixes.map((mix) => {
        const owner = mix.owner;
        return (
          <li key={mix.id} className={styles.row}>
            <img className={styles.cover} src={mix.coverUrl} alt="" width={compact ? 48 : 72} height={compact ? 48 : 72} loading="lazy" />
            <div className={styles.text}>
              <Link to={`/mix/${mix.id}`} className={styles.title} title={mix.title}>
                {truncateForWidth(mix.title, titleWidth)}
              </Link>
              {owner.userName ? (
                <Link to={`/profile/${owner.userName}`} className={styles.creator}>
                  {owner.displayName || owner.userName}
                </Link>
              ) : (
                <span className={styles.creator}>{owner.displayName}</span>
              )}
              <span className={styles.date}>Published: {formatDate(mix.publishedAt ?? mix.createdAt)}</span>
            </div>
            <RemoveButton mixId={mix.id} title={mix.title} />
          </li>
        );
      })}
    </ul>
  );
}
