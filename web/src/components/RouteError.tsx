import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import buttons from './Button.module.css';
import styles from './RouteError.module.css';

const RELOADED_KEY = 'mixcrate:reloaded-for-chunk';

/** A screen's chunk could not be loaded: usually a deploy replaced it while this tab was open. */
function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /dynamically imported module|Importing a module script failed|module script|Failed to fetch/i.test(message);
}

/**
 * The router's failure screen (docs/static-pages.md#failure-screen: 'Unexpected Application Error!'). A missing chunk after a deploy reloads the
 * page once to pick up the new build instead.
 */
export function RouteError() {
  const error = useRouteError();
  const reload = isChunkLoadError(error) && !sessionStorage.getItem(RELOADED_KEY);

  useEffect(() => {
    if (reload) {
      sessionStorage.setItem(RELOADED_KEY, '1');
      window.location.reload();
    } else {
      sessionStorage.removeItem(RELOADED_KEY);
    }
  }, [reload]);

  if (reload) return null;
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : null;
  return (
    <main className={styles.main}>
      <h1 className={styles.title}>Unexpected Application Error!</h1>
      {detail ? <p className={styles.detail}>{detail}</p> : null}
      <Link to="/" className={buttons.secondary} reloadDocument>
        Go to the homepage
      </Link>
    </main>
  );
}
