import { Outlet } from 'react-router';
import styles from './RootLayout.module.css';

/** Above every route. The audio player bar will live here, so playback survives navigation. */
export function RootLayout() {
  return (
    <div className={styles.app}>
      <Outlet />
    </div>
  );
}

/** Shown while the first route's chunk loads. */
export function RouteFallback() {
  return (
    <div className={styles.fallback} role="status" aria-live="polite">
      <span className={styles.visuallyHidden}>Loading</span>
      <span className={styles.pulse} aria-hidden="true" />
    </div>
  );
}
