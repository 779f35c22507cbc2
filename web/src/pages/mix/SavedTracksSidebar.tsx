import { useQuery } from '@apollo/client/react';
import { Spinner } from '../../components/Spinner';
import { SavedTracksDocument } from '../../gql/graphql';
import { formatDate } from '../../lib/format';
import styles from './MixPage.module.css';

/** The 350 px saved-tracks sidebar of the mix page, newest first (docs/mix-page.md#tracklist). */
export function SavedTracksSidebar() {
  const { data, loading, error } = useQuery(SavedTracksDocument);
  const saved = data?.me?.savedTracks;
  return (
    <section aria-labelledby="saved-tracks-title" className={styles.sidebar}>
      <h2 id="saved-tracks-title" className={styles.sidebarTitle}>
        Saved tracks
      </h2>
      {loading && !saved ? <Spinner label="Loading saved tracks" /> : null}
      {error ? <p className={styles.error}>Saved tracks could not be loaded.</p> : null}
      {!Array.isArray(saved) || saved.length === 0 ? (
        !loading && !error ? (
          <p className={styles.muted}>No saved tracks yet</p>
        ) : null
      ) : (
        <ul className={styles.savedTracks}>
          {saved.map(({ track, savedAt }) => (
            <li key={track.id}>
              <span className={styles.trackTitle}>{track.title}</span>
              <span className={styles.muted}>
                {track.creators.map((creator) => creator.name).join(', ')}
                {track.label ? ` · ${track.label.name}` : ''}
              </span>
              <span className={styles.savedDate}>Saved {formatDate(savedAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
