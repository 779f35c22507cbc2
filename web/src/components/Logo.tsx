import { Link } from 'react-router';
import { useAuth } from '../auth/auth';
import styles from './Logo.module.css';

/** The wordmark. On public screens it links home and, per docs/navigation.md#header, clicking it clears the stored login. */
export function Logo() {
  const { signOut } = useAuth();
  return (
    <Link to="/" className={styles.logo} onClick={signOut} aria-label="mixcrate home">
      <span className={styles.mark} aria-hidden="true">
        <span />
        <span />
        <span />
        <span />
      </span>
      <span className={styles.word}>mixcrate</span>
    </Link>
  );
}
