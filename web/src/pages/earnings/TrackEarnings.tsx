import { Link } from 'react-router';
import type { CreatorEarningsQuery } from '../../gql/graphql';
import { formatPrice } from '../../lib/format';
import styles from '../moderation/Moderation.module.css';
import { listeningTime, periodLabel } from '../settings/EarningsSection';

type Month = CreatorEarningsQuery['creatorEarnings']['months'][number];

/**
 * One creator name's month, per track (docs/creators.md#earnings): the tracks' amounts add up to the month's. A line
 * settled before per-track lines were recorded has no track and reads as such.
 */
function MonthTracks({ month }: { month: Month }) {
  const caption = `${month.creatorName}, ${periodLabel(month.period)}: ${formatPrice(month.amountCents)} by track`;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
    <section className={styles.tableWrap} aria-label={caption} tabIndex={0}>
      <table className={styles.table}>
        <caption className={styles.muted}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Track</th>
            <th scope="col">Listened (h:mm:ss)</th>
            <th scope="col">Subscribers</th>
            <th scope="col">Earned</th>
            <th scope="col">Paid</th>
          </tr>
        </thead>
        <tbody>
          {month.tracks.map((track) => (
            <tr key={track.trackId ?? `untracked-${track.title ?? ''}`}>
              <th scope="row">
                {track.trackId ? (
                  <Link to={`/track/${track.trackId}`}>{track.title}</Link>
                ) : (
                  (track.title ?? <span className={styles.muted}>Settled before per-track lines</span>)
                )}
              </th>
              <td>{listeningTime(track.listenedSeconds)}</td>
              <td>{track.subscribers}</td>
              <td>{formatPrice(track.amountCents)}</td>
              <td>{formatPrice(track.paidCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Every month's per-track tables, newest month first, under their own heading. */
export function TrackEarnings({ months }: { months: Month[] }) {
  return (
    <section className={styles.section} aria-labelledby="earnings-tracks">
      <h2 id="earnings-tracks" className={styles.sectionTitle}>
        By track
      </h2>
      {months.length === 0 ? (
        <p className={styles.text}>No track has earned yet.</p>
      ) : (
        months.map((month) => <MonthTracks key={`${month.period}-${month.creatorName}`} month={month} />)
      )}
    </section>
  );
}
