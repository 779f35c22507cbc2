import { Link } from 'react-router';
import buttons from '../../components/Button.module.css';
import styles from './Profile.module.css';

/** No member uses the name in the address. */
export function MemberNotFound({ homePath }: { homePath: string }) {
  return (
    <section className={styles.notFound} aria-labelledby="member-not-found">
      <h1 id="member-not-found">No member found</h1>
      <p className={styles.muted}>Nobody uses that name here. Check the link, or find members from the homepage.</p>
      <Link to={homePath} className={buttons.primary}>
        Back to home
      </Link>
    </section>
  );
}

/** The profile request failed (network or server), which says nothing about whether the member exists. */
export function ProfileLoadFailed({ onRetry }: { onRetry(): void }) {
  return (
    <section className={styles.notFound} aria-labelledby="profile-failed">
      <h1 id="profile-failed">This profile could not be loaded</h1>
      <p className={styles.muted} role="alert">
        Check your connection and try again.
      </p>
      <button type="button" className={buttons.secondary} onClick={onRetry}>
        Try again
      </button>
    </section>
  );
}
