import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { type MixModerationState, MyCopyrightNoticesDocument } from '../../gql/graphql';
import { NoticeDetails } from './NoticeDetails';
import styles from './Trust.module.css';

/**
 * The banner on the owner's own held mix (docs/trust.md#hidden-means-hidden): hidden or removed, and why. When a notice holds it,
 * the notice's words, the counter-notice form while it is open, and the history.
 */
export function MixHold({ mixId, state }: { mixId: string; state: MixModerationState }) {
  const { data, loading, error } = useQuery(MyCopyrightNoticesDocument, { fetchPolicy: 'cache-and-network' });
  const notices = (data?.myCopyrightNotices ?? []).filter((notice) => notice.mixId === mixId && notice.isOwner);
  const current = notices.find((notice) => notice.status === 'OPEN' || notice.status === 'COUNTERED') ?? notices[0];
  const why = current ? 'copyright notice' : 'moderator';
  return (
    <section className={styles.banner} aria-labelledby="mix-hold-title">
      <h2 id="mix-hold-title" className={styles.panelTitle}>
        {state === 'REMOVED' ? 'Removed' : 'Hidden'}: {why}
      </h2>
      <p>
        {state === 'REMOVED'
          ? 'This mix was taken down: only you can see it.'
          : 'This mix is hidden from everyone but you while a moderator looks at it. Nothing of it is lost: if it is restored, it is back exactly as it was.'}
      </p>
      {loading && !data ? <p className={styles.muted}>Loading the notice…</p> : null}
      {error ? <p className={styles.muted}>The notice could not be loaded. Please try again later.</p> : null}
      {current ? (
        <>
          <NoticeDetails notice={current} headingLevel={3} />
          <Link to={`/notices/${current.id}`}>Open the notice page</Link>
        </>
      ) : null}
    </section>
  );
}
