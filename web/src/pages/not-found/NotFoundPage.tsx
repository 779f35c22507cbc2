import { Link } from 'react-router';
import buttons from '../../components/Button.module.css';
import styles from './NotFoundPage.module.css';

/** SPEC §2 `*` and §8: the unknown-route page. */
export function NotFoundPage() {
  return (
    <main className={styles.main}>
      <p className={styles.code} aria-hidden="true">
        404
      </p>
      <h1 className={styles.title}>Oooops... That page cannot be found</h1>
      <Link to="/" className={buttons.secondary}>
        Go to the homepage
      </Link>
    </main>
  );
}
