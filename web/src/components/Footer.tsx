import { Link } from 'react-router';
import styles from './Footer.module.css';

/** Footer: copyright, Terms, Privacy Policy, Transparency, Change log (docs/navigation.md#footer). */
export function Footer() {
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <p>© {new Date().getFullYear()} mixcrate</p>
        <nav aria-label="Legal and releases">
          <ul className={styles.links}>
            <li>
              <Link to="/terms">Terms</Link>
            </li>
            <li>
              <Link to="/privacy">Privacy Policy</Link>
            </li>
            <li>
              <Link to="/transparency">Transparency</Link>
            </li>
            <li>
              <Link to="/change-log">Change log</Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
