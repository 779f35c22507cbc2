import { useMutation } from '@apollo/client/react';
import { signInFormSchema } from '@mixcrate/api/validation';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../../auth/auth';
import type { LeavingState } from '../../auth/use-sign-out-here';
import buttons from '../../components/Button.module.css';
import { Logo } from '../../components/Logo';
import { TextField } from '../../components/TextField';
import { SignInDocument } from '../../gql/graphql';
import { useFormState } from '../../lib/use-form-state';
import styles from './SignInPage.module.css';

/** After 'Next' is clicked, go to /home after 750 ms (docs/accounts.md#sign-in). */
export const NEXT_DELAY_MS = 750;
/** What the screen says when the server rejects the sign-in (docs/accounts.md#sign-in). */
export const SIGN_IN_REJECTED = 'Please check details and try again.';

const EMPTY = { email: '', password: '', confirmPassword: '' };

/** `/signin`: 'Let's login' with email, password and confirmation, validated with the shared rules (docs/accounts.md#passwords) (docs/accounts.md#sign-in). */
export function SignInPage() {
  const navigate = useNavigate();
  const auth = useAuth();
  // What the page that sent us here says happened (signing out everywhere says how many sessions ended).
  const notice = (useLocation().state as Partial<LeavingState> | null)?.notice;
  const [leaving, setLeaving] = useState(false);
  const [signIn, { data, error, reset }] = useMutation(SignInDocument);
  const form = useFormState(signInFormSchema, EMPTY, {
    onEdit: () => {
      if (error) reset();
    },
  });
  const nextButton = useRef<HTMLButtonElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const signedIn = data?.signIn;

  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (signedIn) nextButton.current?.focus();
  }, [signedIn]);

  async function submit({ email, password }: { email: string; password: string }) {
    try {
      const result = await signIn({ variables: { input: { email, password } } });
      const session = result.data?.signIn;
      if (session) auth.signIn({ token: session.token, userName: session.viewer.userName });
    } catch {
      // The mutation's `error` shows the alert.
    }
  }

  function next() {
    setLeaving(true);
    timer.current = setTimeout(() => navigate('/home'), NEXT_DELAY_MS);
  }

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <Logo />
      </header>
      <main className={styles.main}>
        <section className={styles.card} aria-labelledby="signin-title">
          <h1 id="signin-title" className={styles.title}>
            Let&apos;s login
          </h1>

          {signedIn ? (
            <div className={styles.success} role="status">
              <p className={styles.successText}>You&apos;re in{signedIn.viewer.userName ? `, @${signedIn.viewer.userName}` : ''}.</p>
              <button ref={nextButton} type="button" className={buttons.primary} onClick={next} disabled={leaving}>
                {leaving ? 'Opening your crate…' : 'Next'}
              </button>
            </div>
          ) : (
            <form className={styles.form} onSubmit={form.submitWith(submit)} noValidate>
              <p className={styles.subtitle}>Welcome back. Sign in to play, save and share mixes.</p>
              {typeof notice === 'string' ? (
                <p className={styles.notice} role="status">
                  {notice}
                </p>
              ) : null}
              <TextField label="Email" type="email" autoComplete="email" inputMode="email" {...form.field('email')} />
              <TextField label="Password" type="password" autoComplete="current-password" {...form.field('password')} />
              <TextField label="Confirm password" type="password" autoComplete="current-password" {...form.field('confirmPassword')} />
              {error ? (
                <div className={styles.alert} role="alert">
                  {SIGN_IN_REJECTED}
                </div>
              ) : null}
              <button type="submit" className={buttons.primary} disabled={form.submitting} aria-busy={form.submitting || undefined}>
                {form.submitting ? 'Logging in…' : 'Login'}
              </button>
              <p className={styles.forgot}>
                <Link to="/signin/enter-reset-password">Forgot password?</Link>
              </p>
            </form>
          )}
          {signedIn ? null : (
            <p className={styles.switch}>
              New here? <Link to="/signup">Create an account</Link>
            </p>
          )}
        </section>
      </main>
    </div>
  );
}
