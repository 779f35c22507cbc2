import { useQuery } from '@apollo/client/react';
import { Spinner } from '../../components/Spinner';
import { PublicEarningsDocument } from '../../gql/graphql';
import { formatPrice } from '../../lib/format';
import styles from '../moderation/Moderation.module.css';
import { periodLabel } from '../settings/EarningsSection';
import { StaticPage } from '../static/StaticPage';

/**
 * `/creator-earnings` (docs/creators.md#public-page): per month, in aggregate only, what the promise "70% to the
 * creators you listen to" came to: the creators' share, what was paid out, and what waits for creators to claim it.
 */
export function PublicEarningsPage() {
  const { data, loading, error } = useQuery(PublicEarningsDocument);
  const months = data?.publicEarnings;
  return (
    <StaticPage
      title="Where subscribers' money goes"
      intro={
        <p>
          70% of every subscription goes to the music creators its subscriber listened to. Creators claim their name and are paid monthly;
          money for creators who have not claimed theirs yet is held for them, never spread over others.
        </p>
      }
    >
      {loading && !months ? <Spinner label="Loading" /> : null}
      {error ? <p className={styles.text}>The figures could not be loaded. Please try again later.</p> : null}
      {months && months.length === 0 ? <p className={styles.text}>No month has been settled yet.</p> : null}
      {months && months.length > 0 ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
        <section className={styles.tableWrap} aria-label="Creator money by month" tabIndex={0}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col">To creators (70%)</th>
                <th scope="col">Paid out</th>
                <th scope="col">Waiting to be claimed</th>
              </tr>
            </thead>
            <tbody>
              {months.map((month) => (
                <tr key={month.period}>
                  <th scope="row">{periodLabel(month.period)}</th>
                  <td>{formatPrice(month.creatorsCents)}</td>
                  <td>{formatPrice(month.paidOutCents)}</td>
                  <td>{formatPrice(month.waitingCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </StaticPage>
  );
}
