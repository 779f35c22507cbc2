import { useQuery } from '@apollo/client/react';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import { TransparencyReportDocument } from '../../gql/graphql';
import styles from '../moderation/Moderation.module.css';
import { periodLabel } from '../settings/EarningsSection';
import { StaticPage } from '../static/StaticPage';

const COLUMNS = [
  ['reportsReceived', 'Reports received'],
  ['notices', 'Copyright notices'],
  ['takedowns', 'Takedowns'],
  ['counterNotices', 'Counter-notices'],
  ['restorations', 'Restorations'],
  ['suspensions', 'Suspensions'],
] as const;

/**
 * `/transparency` (docs/trust.md#transparency): per month, newest first, how many reports, notices, takedowns,
 * counter-notices, restorations and suspensions there were. Counts only: no names, no mixes.
 */
export function TransparencyPage() {
  const { data, loading, error, refetch } = useQuery(TransparencyReportDocument, { variables: { months: 12 } });
  const months = data?.transparencyReport;
  return (
    <StaticPage
      title="Transparency"
      intro={
        <p>
          What members reported, what rights holders asked us to take down, and what moderators did, month by month (UTC). A takedown is a
          mix hidden or removed after a notice or by a moderator; a restoration brings a mix or a member back exactly as they were.
        </p>
      }
    >
      {loading && !months ? <Spinner label="Loading" /> : null}
      {error && !months ? (
        <p className={styles.alert} role="alert">
          The figures could not be loaded.{' '}
          <button type="button" className={buttons.secondary} onClick={() => void refetch().catch(() => undefined)}>
            Try again
          </button>
        </p>
      ) : null}
      {months && months.length === 0 ? <p className={styles.text}>Nothing to count yet.</p> : null}
      {months && months.length > 0 ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
        <section className={styles.tableWrap} aria-label="Counts by month" tabIndex={0}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Month</th>
                {COLUMNS.map(([key, label]) => (
                  <th key={key} scope="col">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {months.map((month) => (
                <tr key={month.month}>
                  <th scope="row">{periodLabel(month.month)}</th>
                  {COLUMNS.map(([key]) => (
                    <td key={key}>{month[key]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </StaticPage>
  );
}
