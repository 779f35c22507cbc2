import { useQuery } from '@apollo/client/react';
import { EARNINGS_CREATOR_MAX } from '@mixcrate/api/rules';
import { useId, useState } from 'react';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import { EarningsDocument, EarningsPeriodsDocument } from '../../gql/graphql';
import { authHeaders } from '../../lib/auth-headers';
import { formatPrice } from '../../lib/format';
import styles from './SettingsPage.module.css';

/** '2026-11' -> 'November 2026'. */
export function periodLabel(period: string): string {
  const [year, month] = period.split('-').map(Number);
  if (!year || !month) return period;
  return new Date(Date.UTC(year, month - 1, 1)).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** Seconds of listening as hours, minutes and seconds: 5431 -> '1:30:31'. */
export function listeningTime(seconds: number): string {
  const whole = Math.floor(seconds);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${Math.floor(whole / 3600)}:${pad(Math.floor(whole / 60) % 60)}:${pad(whole % 60)}`;
}

/** The period's CSV from the API (signed in, so fetched with the token), saved by the browser under the server's name. */
async function downloadCsv(period: string): Promise<void> {
  const response = await fetch(`/api/payment/earnings/${encodeURIComponent(period)}.csv`, {
    headers: authHeaders(),
  });
  if (!response.ok) throw new Error('The export could not be made. Please try again.');
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `mixcrate-earnings-${period}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Report({ period, creator }: { period: string; creator: string }) {
  const { data, loading, error } = useQuery(EarningsDocument, { variables: { period, creator: creator.trim() || null } });
  const report = data?.earnings;
  if (loading && !report) return <Spinner label="Loading earnings" size="small" />;
  if (error || !report) return <p className={styles.text}>The earnings could not be loaded. Please try again later.</p>;
  return (
    <>
      <dl className={styles.totals}>
        <div>
          <dt>Subscriptions paid</dt>
          <dd>{formatPrice(report.paidCents)}</dd>
        </div>
        <div>
          <dt>To creators (70%)</dt>
          <dd>{formatPrice(report.creatorsCents)}</dd>
        </div>
        <div>
          <dt>Unallocated</dt>
          <dd>{formatPrice(report.unallocatedCents)}</dd>
        </div>
      </dl>
      {report.creators.length === 0 ? (
        <p className={styles.text}>
          {creator.trim() ? 'No creator of that name earned in this period.' : 'No creator earned in this period.'}
        </p>
      ) : (
        // A region of its own, focusable: on a narrow screen the table scrolls sideways, also by keyboard (WCAG 2.1.1).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
        <section className={styles.tableWrap} aria-label="Creators' earnings table" tabIndex={0}>
          <table className={styles.table}>
            <caption className={styles.caption}>Creators' earnings, {periodLabel(report.period)}</caption>
            <thead>
              <tr>
                <th scope="col">Creator</th>
                <th scope="col">Listened (h:mm:ss)</th>
                <th scope="col">Subscribers</th>
                <th scope="col">Earned</th>
              </tr>
            </thead>
            <tbody>
              {report.creators.map((row) => (
                <tr key={row.creatorKey}>
                  <th scope="row">{row.creatorName}</th>
                  <td>{listeningTime(row.listenedSeconds)}</td>
                  <td>{row.subscribers}</td>
                  <td>{formatPrice(row.amountCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}

/**
 * Creators' earnings by period (the rewards ledger: 70% of each subscription payment, shared by what its subscriber
 * listened to), one creator found by name, and the period's CSV export.
 */
export function EarningsSection() {
  const ids = useId();
  const periods = useQuery(EarningsPeriodsDocument);
  const [chosen, setChosen] = useState<string | null>(null);
  const [creator, setCreator] = useState('');
  const [exportError, setExportError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const list = periods.data?.earningsPeriods ?? [];
  const period = chosen ?? list[0] ?? null;

  async function exportCsv() {
    if (!period) return;
    setExportError(null);
    setExporting(true);
    await downloadCsv(period).catch((error: Error) => setExportError(error.message));
    setExporting(false);
  }

  return (
    <section className={styles.section} aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className={styles.sectionTitle}>
        Creator earnings
      </h2>
      <p className={styles.text}>70% of every subscription goes to the music creators its subscriber listened to.</p>
      {periods.loading ? <Spinner label="Loading periods" size="small" /> : null}
      {periods.error ? <p className={styles.text}>The earnings could not be loaded. Please try again later.</p> : null}
      {!periods.loading && !periods.error && !period ? (
        <p className={styles.text}>No earnings yet: none of the months has a paid subscription.</p>
      ) : null}
      {period ? (
        <>
          <div className={styles.filters}>
            <label className={styles.field}>
              Period
              <select value={period} onChange={(event) => setChosen(event.target.value)}>
                {list.map((value) => (
                  <option key={value} value={value}>
                    {periodLabel(value)}
                  </option>
                ))}
              </select>
            </label>
            <label className={styles.field}>
              Creator
              <input
                type="search"
                value={creator}
                maxLength={EARNINGS_CREATOR_MAX}
                placeholder="All creators"
                onChange={(event) => setCreator(event.target.value)}
              />
            </label>
            <button type="button" className={buttons.secondary} disabled={exporting} onClick={() => void exportCsv()}>
              Export CSV
            </button>
          </div>
          {exportError ? (
            <div className={styles.alert} role="alert">
              {exportError}
            </div>
          ) : null}
          <Report period={period} creator={creator} />
        </>
      ) : null}
    </section>
  );
}
