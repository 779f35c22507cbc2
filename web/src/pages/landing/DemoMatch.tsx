import { useId, useState } from 'react';
import styles from './DemoMatch.module.css';

/** The demo's two members (docs/static-pages.md#landing-page: a track match between two users 7 km apart). Invented people and music. */
const MEMBERS = [
  { initials: 'MK', name: 'Maya K.', type: 'DJ', place: 'Berlin Mitte', activity: 'Played it in “Sunday Rooftop Session” at 42:10' },
  { initials: 'TR', name: 'Theo R.', type: 'Listener', place: 'Berlin Lichtenberg', activity: 'Saved it to his tracks last week' },
] as const;

const TRACK = { title: 'Late Light', artist: 'Ola Bright', label: 'Night Shift Records' } as const;

/** Landing demo: two member cards 7 km apart and the track they share, revealed on demand (docs/static-pages.md#landing-page). */
export function DemoMatch() {
  const [open, setOpen] = useState(false);
  const trackId = useId();
  return (
    <section className={styles.demo} aria-labelledby="demo-title">
      <div className={styles.intro}>
        <h2 id="demo-title" className={styles.title}>
          A match, 7&nbsp;km apart
        </h2>
        <p className={styles.lead}>
          Every mix on mixcrate comes with its tracklist, so members who love the same music find each other. Here is what a match looks
          like.
        </p>
      </div>

      <div className={[styles.board, open ? styles.matched : ''].join(' ')}>
        <ul className={styles.members}>
          {MEMBERS.map((member) => (
            <li key={member.name} className={styles.member}>
              <span className={styles.avatar} aria-hidden="true">
                {member.initials}
              </span>
              <span className={styles.memberText}>
                <strong className={styles.memberName}>{member.name}</strong>
                <span className={styles.memberMeta}>
                  {member.type} · {member.place}
                </span>
              </span>
            </li>
          ))}
        </ul>
        <p className={styles.distance}>
          <span className={styles.line} aria-hidden="true" />
          <span className={styles.badge}>7 km</span>
          <span className={styles.visuallyHidden}> apart</span>
          <span className={styles.line} aria-hidden="true" />
        </p>
      </div>

      <button
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={trackId}
        onClick={() => setOpen((shown) => !shown)}
      >
        {open ? 'Hide the matched track' : 'Show the matched track'}
      </button>

      <div id={trackId} className={styles.track} hidden={!open}>
        <div className={styles.cover} aria-hidden="true" />
        <div className={styles.trackText}>
          <p className={styles.matchLabel}>Matched track</p>
          <p className={styles.trackTitle}>
            {TRACK.title} <span className={styles.trackArtist}>by {TRACK.artist}</span>
          </p>
          <p className={styles.trackLabel}>{TRACK.label}</p>
          <ul className={styles.activities}>
            {MEMBERS.map((member) => (
              <li key={member.name}>
                <strong>{member.name}</strong> {member.activity}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
