import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import { OUTCOMES } from '../../components/trust/notice-words';
import { reasonLabel } from '../../components/trust/ReportDialog';
import { MyReportsDocument, type ReportFieldsFragment } from '../../gql/graphql';
import { formatDate } from '../../lib/format';
import styles from '../moderation/Moderation.module.css';

const PAGE = 25;

/** What became of a report, in a few words. */
function whatBecame(report: ReportFieldsFragment): string {
  if (report.status === 'OPEN') return 'Waiting for a moderator';
  if (report.status === 'DISMISSED') return `Dismissed ${report.decidedAt ? formatDate(report.decidedAt) : ''}`.trim();
  const outcome = report.outcome ? (OUTCOMES[report.outcome] ?? report.outcome) : 'acted on';
  return `Upheld: ${outcome}${report.decidedAt ? `, ${formatDate(report.decidedAt)}` : ''}`;
}

function targetLink(report: ReportFieldsFragment) {
  const name = report.targetName ?? (report.targetKind === 'MIX' ? 'A mix no longer here' : 'A member no longer here');
  if (!report.targetName || report.targetKind === 'MEMBER') return name;
  return <Link to={`/mix/${report.targetId}`}>{name}</Link>;
}

/** `/reports` (docs/trust.md#reports): the member's reports, newest first, and what became of each. */
export function MyReportsPage() {
  const [page, setPage] = useState(0);
  const { data, loading, error, refetch } = useQuery(MyReportsDocument, { variables: { page }, fetchPolicy: 'cache-and-network' });
  const reports = data?.myReports;
  const pages = reports ? Math.max(1, Math.ceil(reports.totalCount / PAGE)) : 1;
  return (
    <AppShell label="My reports" columns={1}>
      <div className={styles.page}>
        <h1 className={styles.title}>My reports</h1>
        <p className={styles.text}>
          Mixes and members you reported to the moderators, and what became of each. Copyright notices you filed or received are under{' '}
          <Link to="/notices">My notices</Link>.
        </p>
        {loading && !reports ? <Spinner label="Loading your reports" /> : null}
        {error && !reports ? (
          <div className={styles.alert} role="alert">
            Your reports could not be loaded.{' '}
            <button type="button" className={buttons.secondary} onClick={() => void refetch().catch(() => undefined)}>
              Try again
            </button>
          </div>
        ) : null}
        {reports && reports.items.length === 0 ? (
          <p className={styles.text}>You have not reported anything. Use “Report” on a mix card’s menu or a profile.</p>
        ) : null}
        {reports && reports.items.length > 0 ? (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
          <section className={styles.tableWrap} aria-label="Your reports" tabIndex={0}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">Reported</th>
                  <th scope="col">What</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {reports.items.map((report) => (
                  <tr key={report.id}>
                    <td>{formatDate(report.createdAt)}</td>
                    <td>
                      {report.targetKind === 'MIX' ? 'Mix: ' : 'Member: '}
                      {targetLink(report)}
                    </td>
                    <td>
                      {reasonLabel(report.reason)}
                      {report.note ? <span className={styles.muted}> · {report.note}</span> : null}
                    </td>
                    <td>{whatBecame(report)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ) : null}
        {pages > 1 ? (
          <nav className={styles.pager} aria-label="Report pages">
            <button type="button" className={buttons.secondary} disabled={page === 0} onClick={() => setPage(page - 1)}>
              Newer
            </button>
            <span>
              Page {page + 1} of {pages}
            </span>
            <button type="button" className={buttons.secondary} disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
              Older
            </button>
          </nav>
        ) : null}
      </div>
    </AppShell>
  );
}
