import { useQuery } from '@apollo/client/react';
import { Link, useParams } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import { NoticeDetails } from '../../components/trust/NoticeDetails';
import { NOTICE_STATUS } from '../../components/trust/notice-words';
import { CopyrightNoticeDocument, MyCopyrightNoticesDocument } from '../../gql/graphql';
import { formatDate } from '../../lib/format';
import { serverMessage, serverStatus } from '../../lib/server-message';
import styles from '../moderation/Moderation.module.css';

/** `/notices/{id}` (docs/trust.md#notices): one notice, its counter-notice and history, for both parties. */
export function NoticePage() {
  const { id = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(CopyrightNoticeDocument, { variables: { id }, fetchPolicy: 'cache-and-network' });
  const notice = data?.copyrightNotice;
  const refused = serverStatus(error);
  return (
    <AppShell label="Copyright notice" columns={1}>
      <div className={styles.page}>
        <h1 className={styles.title}>Copyright notice</h1>
        {loading && !notice ? <Spinner label="Loading the notice" /> : null}
        {error && !notice ? (
          <div className={styles.alert} role="alert">
            {refused === 403 || refused === 404 ? serverMessage(error, 'No such copyright notice') : 'The notice could not be loaded.'}{' '}
            {refused === 403 || refused === 404 ? null : (
              <button type="button" className={buttons.secondary} onClick={() => void refetch().catch(() => undefined)}>
                Try again
              </button>
            )}
          </div>
        ) : null}
        {notice ? (
          <section className={styles.section} aria-label="The notice">
            <p className={styles.text}>
              On the mix <Link to={`/mix/${notice.mixId}`}>{notice.mixTitle}</Link>
              {notice.isFiler ? ' (you filed it)' : notice.isOwner ? ' (your mix)' : ''}.
            </p>
            <NoticeDetails notice={notice} />
          </section>
        ) : null}
        <p className={styles.text}>
          <Link to="/notices">All my notices</Link>
        </p>
      </div>
    </AppShell>
  );
}

/** `/notices` (docs/trust.md#notices): notices the member filed and notices on their mixes, newest first. */
export function MyNoticesPage() {
  const { data, loading, error, refetch } = useQuery(MyCopyrightNoticesDocument, { fetchPolicy: 'cache-and-network' });
  const notices = data?.myCopyrightNotices;
  return (
    <AppShell label="My notices" columns={1}>
      <div className={styles.page}>
        <h1 className={styles.title}>My notices</h1>
        <p className={styles.text}>
          Copyright notices you filed as a verified creator or label, and notices on your mixes. Reports are under{' '}
          <Link to="/reports">My reports</Link>.
        </p>
        {loading && !notices ? <Spinner label="Loading your notices" /> : null}
        {error && !notices ? (
          <div className={styles.alert} role="alert">
            Your notices could not be loaded.{' '}
            <button type="button" className={buttons.secondary} onClick={() => void refetch().catch(() => undefined)}>
              Try again
            </button>
          </div>
        ) : null}
        {notices && notices.length === 0 ? <p className={styles.text}>No copyright notices, filed or received.</p> : null}
        {notices && notices.length > 0 ? (
          <ul className={styles.items} aria-label="Your notices">
            {notices.map((notice) => (
              <li key={notice.id} className={styles.item}>
                <span className={styles.kind}>{notice.isFiler ? 'Filed by you' : 'On your mix'}</span>
                <Link to={`/notices/${notice.id}`}>
                  {notice.mixTitle}
                  {notice.trackTitle ? ` — “${notice.trackTitle}”` : ''}
                </Link>
                <span className={styles.muted}>
                  {formatDate(notice.createdAt)} · from {notice.claimedName} · {NOTICE_STATUS[notice.status]}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </AppShell>
  );
}
