import { RELEASES, releaseDate } from './change-log';
import { StaticPage } from './StaticPage';
import styles from './StaticPage.module.css';

/** `/change-log`: every release, newest first (docs/static-pages.md). */
export function ChangeLogPage() {
  const newestFirst = [...RELEASES].reverse();
  return (
    <StaticPage title="Change log" intro={<p>What changed in mixcrate, release by release.</p>}>
      <ol className={styles.releases}>
        {newestFirst.map((release) => (
          <li key={release.version} className={styles.release}>
            <div className={styles.releaseHeader}>
              <h2>Version {release.version}</h2>
              <time dateTime={release.date}>{releaseDate(release.date)}</time>
            </div>
            <ul>
              {release.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </StaticPage>
  );
}
