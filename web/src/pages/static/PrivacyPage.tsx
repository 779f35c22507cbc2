import { LOCATION_CELL_KM, LOCATION_CHANGES_PER_HOUR } from '@mixcrate/api/rules';
import { StaticPage } from './StaticPage';
import styles from './StaticPage.module.css';
import { MINIMUM_AGE, TERMS_EFFECTIVE } from './TermsPage';

/** `/privacy`: what mixcrate keeps about members, why, and what they can do about it (docs/static-pages.md). */
export function PrivacyPage() {
  return (
    <StaticPage
      title="Privacy Policy"
      intro={
        <p>
          Effective <time dateTime={TERMS_EFFECTIVE.iso}>{TERMS_EFFECTIVE.text}</time>. We keep what the service needs to work, and nothing
          to sell.
        </p>
      }
    >
      <section className={styles.section}>
        <h2>What we collect</h2>
        <ul>
          <li>
            <strong>Account:</strong> your email, a one-way hash of your password, your username, display name, user type, bio and profile
            image.
          </li>
          <li>
            <strong>Location:</strong> the latitude and longitude you share at sign-up, and where your mixes were made (see{' '}
            <a href="#where-you-are">Where you are</a>).
          </li>
          <li>
            <strong>Mixes:</strong> the audio, cover, title, genre and tracklist you upload.
          </li>
          <li>
            <strong>Activity:</strong> listens, saved mixes and tracks, follows, and the mix you were last playing.
          </li>
          <li>
            <strong>Marketing choice:</strong> whether you want news from us. You can change your mind at any time.
          </li>
        </ul>
      </section>

      <section className={styles.section}>
        <h2 id="where-you-are">Where you are</h2>
        <ul>
          <li>We keep your location exactly as you gave it. Only you see it, in your own account.</li>
          <li>
            Everyone else, signed in or not, only ever sees the centre of the grid square that holds it: squares are about{' '}
            {LOCATION_CELL_KM} km on each side, anywhere on earth. Your mixes carry the square you were in when you uploaded them, never
            your position.
          </li>
          <li>
            Distances to you (on your profile, in follow lists and notifications, on your mix cards) and the distance filter of the feed are
            measured between squares and shown in whole kilometres. However many of them someone puts together, they learn your square and
            nothing finer.
          </li>
          <li>You can change your location up to {LOCATION_CHANGES_PER_HOUR} times an hour.</li>
        </ul>
      </section>

      <section className={styles.section}>
        <h2>Why we use it</h2>
        <ul>
          <li>To run your account, host and stream your mixes, and match their tracklists.</li>
          <li>To show mixes and members by genre and distance, and listener stats to mix owners.</li>
          <li>To send the emails you ask for, such as a password reset, and news only if you opted in.</li>
          <li>To keep mixcrate safe: limiting sign-in attempts and acting on code-of-conduct reports.</li>
        </ul>
      </section>

      <section className={styles.section}>
        <h2>Who else handles it</h2>
        <p>
          A music-recognition service receives audio fingerprints of your mixes to find the tracks in them. Our card payment provider
          handles payments; we never receive your card number. An email provider delivers our mail. None of them may use your data for
          anything else.
        </p>
      </section>

      <section className={styles.section}>
        <h2>In your browser</h2>
        <p>
          We keep your login token, username, location and user type, and an upload in progress, in your browser&apos;s local storage, so
          you stay signed in and can pick up where you left off. Logging out clears it. We use no advertising trackers.
        </p>
      </section>

      <section className={styles.section}>
        <h2>How long we keep it</h2>
        <p>
          Your account data stays while your account exists. A mix stays for its hosting period (12 months for a single upload) or until you
          delete it.
        </p>
      </section>

      <section className={styles.section}>
        <h2>Your rights</h2>
        <p>
          You can see and correct your profile at any time, delete your mixes, withdraw your marketing choice, and ask us for a copy of your
          data or to delete your account, by replying to any email we have sent you.
        </p>
      </section>

      <section className={styles.section}>
        <h2>Age</h2>
        <p>mixcrate is for people aged {MINIMUM_AGE} and over. We delete accounts we learn belong to someone younger.</p>
      </section>
    </StaticPage>
  );
}
