import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import { ConnectPayoutAccountDocument, CreatorEarningsDocument } from '../../gql/graphql';
import { authHeaders } from '../../lib/auth-headers';
import { formatPrice } from '../../lib/format';
import { serverMessage, serverStatus } from '../../lib/server-message';
import styles from '../moderation/Moderation.module.css';
import { listeningTime, periodLabel } from '../settings/EarningsSection';
import { TrackEarnings } from './TrackEarnings';

/** The creator's own CSV, fetched with the token and saved by the browser. */
async function downloadCsv(): Promise<void> {
  const response = await fetch('/api/creator/earnings.csv', { headers: authHeaders() });
  if (!response.ok) throw new Error('The export could not be made. Please try again.');
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = 'mixcrate-my-earnings.csv';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const ACCOUNT_WORDS: Record<string, string> = {
  enabled: 'Connected: payouts reach this account.',
  onboarding: 'Not finished: complete the onboarding to receive payouts.',
  restricted: 'The payment provider needs more details before it pays this account.',
};

/**
 * `/earnings` (docs/creators.md#earnings): a verified creator's own ledger lines per month and per track, their balance and payouts,
 * the CSV export, and their payout account. Anyone else is told how to become a verified creator.
 */
export function EarningsPage() {
  const { data, loading, error, refetch } = useQuery(CreatorEarningsDocument, { fetchPolicy: 'cache-and-network' });
  const [connect, connecting] = useMutation(ConnectPayoutAccountDocument);
  const [message, setMessage] = useState<string | null>(null);
  const earnings = data?.creatorEarnings;

  async function connectAccount() {
    setMessage(null);
    try {
      const result = await connect();
      const redirect = result.data?.connectPayoutAccount.redirect;
      if (redirect && new URL(redirect, window.location.href).origin !== window.location.origin) window.location.assign(redirect);
      else await refetch();
    } catch (failure) {
      setMessage(serverMessage(failure, 'The payout account could not be connected. Please try again.'));
    }
  }

  let content: React.ReactNode;
  if (earnings) {
    const account = earnings.payoutAccount;
    content = (
      <>
        <section className={styles.section} aria-labelledby="earnings-totals">
          <h2 id="earnings-totals" className={styles.sectionTitle}>
            Balance
          </h2>
          <dl className={styles.totals}>
            <div>
              <dt>Earned in all</dt>
              <dd data-testid="earned-total">{formatPrice(earnings.totalCents)}</dd>
            </div>
            <div>
              <dt>Paid out</dt>
              <dd data-testid="paid-total">{formatPrice(earnings.paidCents)}</dd>
            </div>
            <div>
              <dt>Waiting for the next payout</dt>
              <dd>{formatPrice(earnings.balanceCents)}</dd>
            </div>
          </dl>
          <p className={styles.text}>
            Payouts run monthly and pay balances from {formatPrice(earnings.minimumCents)}; smaller balances wait for a later month.
          </p>
          <button
            type="button"
            className={buttons.secondary}
            onClick={() => void downloadCsv().catch((failure: Error) => setMessage(failure.message))}
          >
            Export CSV
          </button>
        </section>
        <section className={styles.section} aria-labelledby="earnings-account">
          <h2 id="earnings-account" className={styles.sectionTitle}>
            Payout account
          </h2>
          <p className={styles.text} data-testid="payout-account">
            {account
              ? `${account.provider === 'test' ? 'Test mode. ' : ''}${ACCOUNT_WORDS[account.status] ?? account.status}`
              : 'No payout account yet.'}
          </p>
          {account?.status !== 'enabled' ? (
            <button type="button" className={buttons.primary} disabled={connecting.loading} onClick={() => void connectAccount()}>
              {account ? 'Finish onboarding' : 'Connect payout account'}
            </button>
          ) : null}
          {message ? (
            <div className={styles.alert} role="alert">
              {message}
            </div>
          ) : null}
        </section>
        <section className={styles.section} aria-labelledby="earnings-months">
          <h2 id="earnings-months" className={styles.sectionTitle}>
            By month
          </h2>
          {earnings.months.length === 0 ? (
            <p className={styles.text}>No earnings yet: they appear once a subscriber's paid month that played your music is settled.</p>
          ) : (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
            <section className={styles.tableWrap} aria-label="Earnings by month" tabIndex={0}>
              <table className={styles.table}>
                <thead>
                  <tr>
                    <th scope="col">Month</th>
                    <th scope="col">Name</th>
                    <th scope="col">Listened (h:mm:ss)</th>
                    <th scope="col">Subscribers</th>
                    <th scope="col">Earned</th>
                    <th scope="col">Paid</th>
                  </tr>
                </thead>
                <tbody>
                  {earnings.months.map((month) => (
                    <tr key={`${month.period}-${month.creatorName}`}>
                      <td>{periodLabel(month.period)}</td>
                      <th scope="row">{month.creatorName}</th>
                      <td>{listeningTime(month.listenedSeconds)}</td>
                      <td>{month.subscribers}</td>
                      <td>{formatPrice(month.amountCents)}</td>
                      <td>{formatPrice(month.paidCents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
        </section>
        <TrackEarnings months={earnings.months} />
        {earnings.payouts.length > 0 ? (
          <section className={styles.section} aria-labelledby="earnings-payouts">
            <h2 id="earnings-payouts" className={styles.sectionTitle}>
              Payouts
            </h2>
            <ul className={styles.items} aria-label="Payouts">
              {earnings.payouts.map((payout) => (
                <li key={payout.period} className={styles.item}>
                  {periodLabel(payout.period)}: {formatPrice(payout.amountCents)}, {payout.status}
                  {payout.transferRef ? <span className={styles.muted}>transfer {payout.transferRef}</span> : null}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </>
    );
  } else if (loading) content = <Spinner label="Loading your earnings" />;
  else if (error && serverStatus(error) === 403)
    content = (
      <p className={styles.text}>
        Earnings are for verified creators. Claim your creator name from a track you made or from your profile; once a moderator approves
        it, your earnings show here.
      </p>
    );
  else content = <p className={styles.text}>Your earnings could not be loaded. Please try again later.</p>;

  return (
    <AppShell label="Earnings" columns={1}>
      <div className={styles.page}>
        <h1 className={styles.title}>Your earnings</h1>
        {content}
        <p className={styles.muted}>
          <Link to="/creator-earnings">Where subscribers' money goes, month by month</Link>
        </p>
      </div>
    </AppShell>
  );
}
