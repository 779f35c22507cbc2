import { useMutation } from '@apollo/client/react';
import { passwordWithConfirmationSchema } from '@mixcrate/api/validation';
import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import buttons from '../../components/Button.module.css';
import { Logo } from '../../components/Logo';
import { ResetPasswordDocument } from '../../gql/graphql';
import { validate } from '../../lib/form-errors';
import { PasswordField } from './PasswordField';
import styles from './ResetPages.module.css';
import { serverMessage, serverStatus, UNREACHABLE } from './server-message';

/** SPEC §9: redirect 3 s after the password is created. */
export const REDIRECT_AFTER_CREATED_MS = 3000;
/** SPEC §2: what the screen says once the new password is set. */
export const PASSWORD_CREATED = 'Password has been created';

type Field = 'password' | 'confirmPassword';
type Values = Record<Field, string>;

const EMPTY: Values = { password: '', confirmPassword: '' };

/**
 * SPEC §2 `/signin/password-reset`: the reset email links here with `email` and `token`. Two password fields, each with
 * a show/hide toggle. resetPassword answers a message, not a session, so after 3 s the member goes to log in with the
 * new password.
 */
export function CreatePasswordPage() {
  const [searchParams] = useSearchParams();
  const email = searchParams.get('email')?.trim() ?? '';
  const token = searchParams.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [resetPassword, { data, error, loading, reset }] = useMutation(ResetPasswordDocument);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const validation = validate(passwordWithConfirmationSchema, values);
  const shownError = (field: Field) => (submitted || touched[field] ? validation.errors[field] : undefined);
  const created = Boolean(data?.resetPassword);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const change = (field: Field) => (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    if (error) reset();
  };
  const blur = (field: Field) => () => setTouched((current) => ({ ...current, [field]: true }));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (!validation.ok || loading) return;
    try {
      await resetPassword({ variables: { input: { email, token, newPassword: validation.data.password } } });
      redirectTimer.current = setTimeout(() => navigate('/signin'), REDIRECT_AFTER_CREATED_MS);
    } catch {
      // The hook's `error` shows the server's message.
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
            <form className={styles.form} onSubmit={submit} noValidate>
              <p className={styles.subtitle}>
                For <span className={styles.email}>{email}</span>
              </p>
              <PasswordField
                label="New password"
                name="password"
                autoComplete="new-password"
                value={values.password}
                onChange={change('password')}
                onBlur={blur('password')}
                error={shownError('password')}
              />
              <PasswordField
                label="Confirm password"
                name="confirmPassword"
                autoComplete="new-password"
                value={values.confirmPassword}
                onChange={change('confirmPassword')}
                onBlur={blur('confirmPassword')}
                error={shownError('confirmPassword')}
              />
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
              <button type="submit" className={buttons.primary} disabled={loading} aria-busy={loading || undefined}>
                {loading ? 'Creating…' : 'Create password'}
              </button>
            </form>
          )}
        </section>
      </main>
    </div>
  );
}
