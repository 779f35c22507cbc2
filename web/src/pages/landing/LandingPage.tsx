import { BETA_CODE, SEARCH_QUERY_MAX } from '@mixcrate/api/rules';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../../auth/auth';
import buttons from '../../components/Button.module.css';
import { Footer } from '../../components/Footer';
import { Logo } from '../../components/Logo';
import { DemoMatch } from './DemoMatch';
import styles from './LandingPage.module.css';

const FEATURES = [
  { title: 'Tracklists, matched', text: 'Upload a mix and we listen for the tracks in it, so every set comes with its tracklist.' },
  { title: 'Mixes near you', text: 'Browse by genre and distance: hear what DJs 7 km away are playing tonight.' },
  { title: 'Share anywhere', text: 'One public link for a mix or a profile. Listeners need no account to press play.' },
];

/** `/`: the closed-beta landing page (docs/static-pages.md#landing-page). Loading it clears the stored login. */
export function LandingPage() {
  const { signOut } = useAuth();

  // Loading / clears token, user_name, location and user_type (docs/static-pages.md#landing-page). The auth state is cleared with them, so the
  // A stored token never sends anyone on to /home from here: the landing page always ends the stored login.
  useEffect(() => {
    signOut();
  }, [signOut]);

  return (
    <>
      <header className={styles.header}>
        <Logo />
        {/* A plain form (the landing page carries no GraphQL client): Enter opens the results page (docs/search.md). */}
        <search className={styles.search}>
          <form action="/search" method="get">
            <input
              className={styles.searchInput}
              type="search"
              name="q"
              maxLength={SEARCH_QUERY_MAX}
              aria-label="Search mixes, members and tracks"
              placeholder="Search mixes, DJs, tracks"
            />
          </form>
        </search>
        <span className={styles.beta}>Closed beta</span>
      </header>

      <main className={styles.main}>
        <section className={styles.hero} aria-labelledby="hero-title">
          <div className={styles.heroText}>
            <p className={styles.kicker}>For DJs and listeners</p>
            <h1 id="hero-title" className={styles.title}>
              Your mixes. <span className={styles.highlight}>Every track found.</span>
            </h1>
            <p className={styles.lead}>Upload a DJ mix, get its tracklist matched, and discover the sets being made near you.</p>
            <div className={styles.actions}>
              <Link to="/signin" className={buttons.primary}>
                Login
              </Link>
              <Link to="/signup" className={buttons.secondary}>
                Create an account
              </Link>
            </div>
            <p className={styles.code}>
              New here? Your first upload is free with code <strong>{BETA_CODE.default}</strong>.
            </p>
          </div>

          <div className={styles.visual} aria-hidden="true">
            <div className={styles.eq}>
              {Array.from({ length: 24 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a fixed row of decorative bars
                <span key={i} style={{ animationDelay: `${(i * 137) % 900}ms` }} />
              ))}
            </div>
            <div className={styles.match}>
              <span className={styles.matchDot} />
              <span>
                <strong>Track matched</strong> · two DJs <strong>{'7\u00a0km'}</strong> apart
              </span>
            </div>
          </div>
        </section>

        <section className={styles.features} aria-labelledby="different-title">
          <h2 id="different-title" className={styles.featuresTitle}>
            What&apos;s different?
          </h2>
          <ul className={styles.featureList}>
            {FEATURES.map((feature) => (
              <li key={feature.title} className={styles.feature}>
                <h3>{feature.title}</h3>
                <p>{feature.text}</p>
              </li>
            ))}
          </ul>
        </section>

        <DemoMatch />

        <section className={styles.betaOffer} aria-labelledby="beta-title">
          <h2 id="beta-title" className={styles.featuresTitle}>
            The beta is closed
          </h2>
          <p className={styles.betaText}>
            We are tuning mixcrate with a small crowd of DJs and listeners. Members sign in as usual; new members can still join and upload
            their first mix free with the code <strong className={styles.codeWord}>{BETA_CODE.default}</strong>.
          </p>
          <div className={styles.actions}>
            <Link to="/signup" className={buttons.primary}>
              Create an account
            </Link>
            <Link to="/signin" className={buttons.secondary}>
              Sign in
            </Link>
          </div>
        </section>
      </main>

      <Footer />
    </>
  );
}
