import styles from './Upload.module.css';

/** A labelled progress bar from 0 to 100 (the upload's percent, the share of the mix scanned). */
export function ProgressBar({ percent, label }: { percent: number; label: string }) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className={styles.bar} role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
      <div className={styles.barFill} style={{ width: `${value}%` }} />
    </div>
  );
}
