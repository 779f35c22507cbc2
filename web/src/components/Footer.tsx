import styles from './Footer.module.css';

/** Public footer. The SPEC's Terms, Privacy Policy and Change log links join it with those pages. */
export function Footer() {
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <p>© {new Date().getFullYear()} mixcrate</p>
      </div>
    </footer>
  );
}
