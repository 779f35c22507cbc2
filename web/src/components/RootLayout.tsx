import { Outlet } from 'react-router';
import { PlayerProvider } from '../player/PlayerProvider';
import styles from './RootLayout.module.css';

/** Above every route: the one audio element lives here, so playback survives every navigation. */
export function RootLayout() {
  return (
    <PlayerProvider>
      <div className={styles.app}>
        <Outlet />
      </div>
    </PlayerProvider>
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
