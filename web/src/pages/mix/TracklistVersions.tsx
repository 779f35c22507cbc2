import { useQuery } from '@apollo/client/react';
import { format } from 'date-fns';
import { Spinner } from '../../components/Spinner';
import { MixTracklistVersionsDocument } from '../../gql/graphql';
import { formatClock, formatDate } from '../../lib/format';
import styles from './MixPage.module.css';

/**
 * 'Tracklist versions', on the owner's published mix: each version's number, when it came into force and how many
 * entries it has; its entries when opened. Listens are paid to the version they were heard with
 * (docs/payments.md#tracklist-versions), so the owner can see what each edit changed.
 */
export function TracklistVersions({ mixId }: { mixId: string }) {
  const { data, loading, error } = useQuery(MixTracklistVersionsDocument, { variables: { id: mixId } });
  const versions = data?.mix?.tracklistVersions;
  return (
    <section aria-labelledby="tracklist-versions-title" className={styles.tracklistSection}>
      <h2 id="tracklist-versions-title" className={styles.sectionTitle}>
        Tracklist versions
      </h2>
      <p className={styles.muted}>
        Each edit of a published tracklist makes a new version. A listen pays the creators of the version it was heard with, even after
        later edits.
      </p>
      {loading ? (
        <Spinner label="Loading tracklist versions" />
      ) : error ? (
        <p className={styles.error} role="alert">
          The tracklist versions could not be loaded.
        </p>
      ) : !versions || versions.length === 0 ? (
        <p className={styles.muted}>No versions yet.</p>
      ) : (
        <ul className={styles.versions}>
          {versions.map((version, index) => (
            <li key={version.id}>
              <details className={styles.version}>
                <summary>
                  <strong>Version {version.number}</strong>
                  {index === 0 ? <span className={styles.currentVersion}>current</span> : null}
                  <span className={styles.muted}>
                    {' · '}
                    <time dateTime={version.createdAt}>
                      {formatDate(version.createdAt)} {format(new Date(version.createdAt), 'HH:mm')}
                    </time>
                    {` · ${version.entries.length} ${version.entries.length === 1 ? 'track' : 'tracks'}`}
                  </span>
                </summary>
                <ol className={styles.versionEntries}>
                  {version.entries.map((entry) => (
                    <li key={entry.position}>
                      <span className={styles.versionTime}>{entry.startTime == null ? '' : formatClock(entry.startTime)}</span>
                      <span>
                        {entry.track.title}
                        <span className={styles.muted}> · {entry.track.creators.map((creator) => creator.name).join(', ')}</span>
                      </span>
                    </li>
                  ))}
                </ol>
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
