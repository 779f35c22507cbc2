import { Link } from 'react-router';
import buttons from '../../components/Button.module.css';
import styles from './NotFoundPage.module.css';

/** `*`: the unknown-route page (docs/static-pages.md#not-found). */
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
