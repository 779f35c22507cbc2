import { StaticPage } from './StaticPage';
import styles from './StaticPage.module.css';

/** The date the terms took effect (docs/static-pages.md#terms), in the documented notation and for machines. */
export const TERMS_EFFECTIVE = { text: '24.05.2024', iso: '2024-05-24' } as const;
/** The minimum age (docs/static-pages.md#terms). */
export const MINIMUM_AGE = 16;

/** `/terms`: the terms of use, effective 24.05.2024, minimum age 16 (docs/static-pages.md). */
export function TermsPage() {
  return (
    <StaticPage
      title="Terms of use"
      intro={
        <p>
          Effective <time dateTime={TERMS_EFFECTIVE.iso}>{TERMS_EFFECTIVE.text}</time>. Please read these terms before you use mixcrate.
        </p>
      }
    >
      <section className={styles.section}>
        <h2>1. Agreement</h2>
        <p>
          By creating an account or using mixcrate you agree to these terms, to our code of conduct and to our privacy policy. If you do not
          agree, please do not use the service.
        </p>
      </section>

      <section className={styles.section}>
        <h2>2. Who may use mixcrate</h2>
        <p>
          You must be at least <strong>{MINIMUM_AGE} years old</strong> to create an account. By signing up you confirm that you are. During
          the closed beta we may limit who can sign up.
        </p>
      </section>

      <section className={styles.section}>
        <h2>3. Your account</h2>
        <ul>
          <li>Keep your password to yourself; you are responsible for what happens under your account.</li>
          <li>Give a real email address: it is how you reset your password.</li>
          <li>One account per person. Do not pretend to be another DJ, artist, label or member.</li>
        </ul>
      </section>

      <section className={styles.section}>
        <h2>4. Your mixes</h2>
        <p>
          You keep every right you have in the mixes, covers and tracklists you upload. You give mixcrate a worldwide, non-exclusive licence
          to store, stream, display and share them on the service for as long as they are hosted.
        </p>
        <p>
          Upload only what you have the right to share. We may remove a mix that breaks these terms or the law, and we act on valid notices
          from rights holders.
        </p>
      </section>

      <section className={styles.section}>
        <h2>5. Uploads and payments</h2>
        <ul>
          <li>A single upload costs $4.00 and is hosted for 12 months.</li>
          <li>A subscription gives unlimited uploads; 70% of its fee goes to the music creators in the mixes.</li>
          <li>A BETA code can unlock a free upload during the beta.</li>
          <li>Payments are handled by our card payment provider; we never see your card number.</li>
        </ul>
      </section>

      <section className={styles.section}>
        <h2>6. Behaviour</h2>
        <p>Treat other members with respect: no harassment, hate, spam or scams. Breaking the code of conduct can end your account.</p>
      </section>

      <section className={styles.section}>
        <h2>7. The service</h2>
        <p>
          mixcrate is in beta: features change, and the service may be unavailable at times. It is provided as it is, without guarantees
          beyond those the law requires. Track matches are suggestions and can be wrong.
        </p>
      </section>

      <section className={styles.section}>
        <h2>8. Ending</h2>
        <p>
          You can stop using mixcrate at any time. We may suspend or close an account that breaks these terms; we will tell you why unless
          the law prevents it.
        </p>
      </section>

      <section className={styles.section}>
        <h2>9. Changes to these terms</h2>
        <p>When these terms change we update the date above and, for important changes, tell you by email before they apply.</p>
      </section>
    </StaticPage>
  );
}
