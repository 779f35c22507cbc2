import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import buttons from '../../components/Button.module.css';
import { Logo } from '../../components/Logo';
import { MeDocument } from '../../gql/graphql';
import styles from './HomePage.module.css';

/** SPEC §2 `/home` (private). For now it greets the signed-in member; the mix carousel comes next. */
export function HomePage() {
  const { data, loading, error } = useQuery(MeDocument);
  const me = data?.me;

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <Logo />
      </header>
      <main className={styles.main}>
        {loading ? (
          <p role="status">Loading your crate…</p>
        ) : me ? (
          <section className={styles.welcome} aria-labelledby="home-title">
            <p className={styles.kicker}>Signed in</p>
            <h1 id="home-title" className={styles.title}>
              {me.userName ? `@${me.userName}` : me.displayName || 'Welcome back'}
            </h1>
            {me.displayName && me.userName ? <p className={styles.muted}>{me.displayName}</p> : null}
            <p className={styles.muted}>{me.userTypeLabel}</p>
          </section>
        ) : (
          <section className={styles.welcome} aria-labelledby="home-title">
            <h1 id="home-title" className={styles.title}>
              Your session has ended
            </h1>
            <p className={styles.muted}>{error ? 'We could not load your account.' : 'Please log in again.'}</p>
            <Link to="/signin" className={buttons.primary}>
              Login
            </Link>
          </section>
        )}
      </main>
    </div>
  );
}
