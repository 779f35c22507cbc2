import styles from './Spinner.module.css';

/** A loading indicator announced to screen readers. */
export function Spinner({ label = 'Loading', size = 'large' }: { label?: string; size?: 'small' | 'large' }) {
  return (
    <span className={size === 'small' ? styles.small : styles.large} role="status">
      <span className={styles.ring} aria-hidden="true" />
      <span className={styles.visuallyHidden}>{label}</span>
    </span>
  );
}
