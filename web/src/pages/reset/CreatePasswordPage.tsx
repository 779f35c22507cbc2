import { useMutation } from '@apollo/client/react';
import { passwordWithConfirmationSchema } from '@mixcrate/api/validation';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import buttons from '../../components/Button.module.css';
import { Logo } from '../../components/Logo';
import { PasswordField } from '../../components/PasswordField';
import { ResetPasswordDocument } from '../../gql/graphql';
import { serverMessage, serverStatus, UNREACHABLE } from '../../lib/server-message';
import { useFormState } from '../../lib/use-form-state';
import styles from './ResetPages.module.css';

/** Redirect 3 s after the password is created (docs/rules.md#timings). */
export const REDIRECT_AFTER_CREATED_MS = 3000;
/** What the screen says once the new password is set (docs/accounts.md#reset-by-email). */
export const PASSWORD_CREATED = 'Password has been created';

const EMPTY = { password: '', confirmPassword: '' };

/**
 * `/signin/password-reset`: the reset email links here with `email` and `token` (docs/accounts.md#reset-by-email). Two password fields, each with
 * a show/hide toggle. resetPassword answers a message, not a session, so after 3 s the member goes to log in with the
 * new password.
 */
export function CreatePasswordPage() {
  const [searchParams] = useSearchParams();
  const email = searchParams.get('email')?.trim() ?? '';
  const token = searchParams.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const [resetPassword, { data, error, reset }] = useMutation(ResetPasswordDocument);
  const form = useFormState(passwordWithConfirmationSchema, EMPTY, {
    onEdit: () => {
      if (error) reset();
    },
  });
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const created = Boolean(data?.resetPassword);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  async function submit({ password }: { password: string }) {
    try {
      await resetPassword({ variables: { input: { email, token, newPassword: password } } });
      redirectTimer.current = setTimeout(() => navigate('/signin'), REDIRECT_AFTER_CREATED_MS);
    } catch {
      // The mutation's `error` shows the server's message.
    }
  }

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <Logo />
      </header>
      <main className={styles.main}>
        <section className={styles.card} aria-labelledby="create-password-title">
          <h1 id="create-password-title" className={styles.title}>
            Create new password
          </h1>

          {!email || !token ? (
            <>
              <p className={styles.alert} role="alert">
                This page needs the link from your reset email, and this link is incomplete.
              </p>
              <Link to="/signin/enter-reset-password" className={buttons.primary}>
                Send a new reset email
              </Link>
            </>
          ) : created ? (
            <div className={styles.done}>
              <p className={styles.notice} role="status">
                {PASSWORD_CREATED}
              </p>
              <p className={styles.subtitle}>Taking you to login, where you can sign in with your new password.</p>
              <Link to="/signin" className={buttons.secondary}>
                Login now
              </Link>
            </div>
          ) : (
            <form className={styles.form} onSubmit={form.submitWith(submit)} noValidate>
              <p className={styles.subtitle}>
                For <span className={styles.email}>{email}</span>
              </p>
              <PasswordField label="New password" autoComplete="new-password" {...form.field('password')} />
              <PasswordField label="Confirm password" autoComplete="new-password" {...form.field('confirmPassword')} />
              {error ? (
                <div className={styles.alert} role="alert">
                  {serverMessage(error, UNREACHABLE)}
                  {serverStatus(error) === 404 ? (
                    <>
                      {' '}
                      <Link to="/signin/enter-reset-password">Send a new reset email</Link>
                    </>
                  ) : null}
                </div>
              ) : null}
              <button type="submit" className={buttons.primary} disabled={form.submitting} aria-busy={form.submitting || undefined}>
                {form.submitting ? 'Creating…' : 'Create password'}
              </button>
            </form>
          )}
        </section>
      </main>
    </div>
  );
}
