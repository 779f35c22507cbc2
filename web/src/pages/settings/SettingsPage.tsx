import { useMutation, useQuery } from '@apollo/client/react';
import { hints } from '@mixcrate/api/rules';
import { passwordWithConfirmationSchema } from '@mixcrate/api/validation';
import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { useSignOutHere } from '../../auth/use-sign-out-here';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { PasswordField } from '../../components/PasswordField';
import { ChangePasswordDocument, CheckPasswordDocument, LedgerAccessDocument, SignOutEverywhereDocument } from '../../gql/graphql';
import { validate } from '../../lib/form-errors';
import { serverMessage, serverStatus } from '../../lib/server-message';
import { BillingSection } from './BillingSection';
import { EarningsSection } from './EarningsSection';
import styles from './SettingsPage.module.css';

/** Message clear delay: the result shows this long, then the form clears (docs/rules.md#timings). */
export const RESULT_CLEAR_MS = 2500;

/** Password check failure default and password update failure texts (docs/accounts.md#changing-the-password). */
export const settingsMessages = {
  checkFailed: 'Password check failed',
  updateFailed: 'Password update failed',
  somethingWrong: 'Something went wrong',
  signOutEverywhereFailed: 'Could not sign out everywhere. Please try again.',
} as const;

/** What the sign-in page says after "Sign out everywhere": how many sessions ended, this one among them. */
export function signedOutEverywhereNotice(ended: number): string {
  if (ended <= 1) return 'You are signed out. No other device was signed in.';
  return `You are signed out on every device: ${ended} sessions ended, this one included.`;
}

type Field = 'oldPassword' | 'password' | 'confirmPassword';
type Values = Record<Field, string>;

const EMPTY: Values = { oldPassword: '', password: '', confirmPassword: '' };

type Result = { text: string; failed: boolean };

/** Statuses 400, 404 and 500 of the update say 'Something went wrong'; others say what the server said (docs/accounts.md#changing-the-password). */
function updateFailure(error: unknown): string {
  const status = serverStatus(error);
  if (status === 400 || status === 404 || status === 500) return settingsMessages.somethingWrong;
  return serverMessage(error, settingsMessages.updateFailed);
}

/**
 * Password change (docs/accounts.md#changing-the-password): the old password is checked first; then the new one is validated with the rules (docs/accounts.md#passwords) and
 * sent. The result shows for 2.5 s, then the form clears.
 */
function PasswordChange() {
  const [values, setValues] = useState<Values>(EMPTY);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [result, setResult] = useState<Result | null>(null);
  const [checkPassword, check] = useMutation(CheckPasswordDocument);
  const [changePassword, change] = useMutation(ChangePasswordDocument);
  const clearTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const busy = check.loading || change.loading;
  const allFilled = values.oldPassword !== '' && values.password !== '' && values.confirmPassword !== '';

  useEffect(() => () => clearTimeout(clearTimer.current), []);

  const edit = (field: Field) => (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.target.value;
    setValues((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => ({ ...current, [field]: undefined }));
    if (result?.failed) setResult(null);
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!allFilled || busy) return;
    clearTimeout(clearTimer.current);
    setResult(null);
    try {
      await checkPassword({ variables: { password: values.oldPassword.trim() } });
    } catch (error) {
      setResult({ text: serverMessage(error, settingsMessages.checkFailed), failed: true });
      return;
    }
    const validation = validate(passwordWithConfirmationSchema, { password: values.password, confirmPassword: values.confirmPassword });
    setFieldErrors(validation.errors);
    if (!validation.ok) return;
    try {
      const answer = await changePassword({ variables: { input: { newPassword: validation.data.password } } });
      setResult({ text: answer.data?.changePassword ?? '', failed: false });
      clearTimer.current = setTimeout(() => {
        setResult(null);
        setValues(EMPTY);
      }, RESULT_CLEAR_MS);
    } catch (error) {
      setResult({ text: updateFailure(error), failed: true });
    }
  }

  return (
    <section className={styles.section} aria-labelledby="password-title">
      <h2 id="password-title" className={styles.sectionTitle}>
        Change password
      </h2>
      <form className={styles.form} onSubmit={submit} noValidate>
        <PasswordField
          label="Old password"
          name="oldPassword"
          autoComplete="current-password"
          value={values.oldPassword}
          onChange={edit('oldPassword')}
        />
        <PasswordField
          label="New password"
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={edit('password')}
          error={fieldErrors.password}
        />
        <PasswordField
          label="Confirm new password"
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={edit('confirmPassword')}
          error={fieldErrors.confirmPassword}
        />
        <p className={styles.hint}>{hints.password}</p>
        <div role="status">{result && !result.failed ? <p className={styles.notice}>{result.text}</p> : null}</div>
        {result?.failed ? (
          <div className={styles.alert} role="alert">
            {result.text}
          </div>
        ) : null}
        <button type="submit" className={buttons.primary} disabled={!allFilled || busy} aria-busy={busy || undefined}>
          {check.loading ? 'Checking…' : change.loading ? 'Changing…' : 'Change'}
        </button>
      </form>
    </section>
  );
}

/**
 * Ends every session of the member, on every phone and computer, this one too: after a lost phone, or a password that
 * may have leaked. Asks first; then the sign-in page says how many sessions ended.
 */
function SignOutEverywhere() {
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [signOutEverywhere, { loading }] = useMutation(SignOutEverywhereDocument);
  const signOutHere = useSignOutHere();
  const confirmButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  async function confirm() {
    setFailure(null);
    try {
      const answer = await signOutEverywhere();
      signOutHere('/signin', signedOutEverywhereNotice(answer.data?.signOutEverywhere ?? 1));
    } catch (error) {
      // A session that had already ended cannot end again: this device is signed out all the same.
      if (serverStatus(error) === 401) signOutHere('/signin', signedOutEverywhereNotice(1));
      else setFailure(serverMessage(error, settingsMessages.signOutEverywhereFailed));
    }
  }

  return (
    <section className={styles.section} aria-labelledby="sessions-title">
      <h2 id="sessions-title" className={styles.sectionTitle}>
        Sessions
      </h2>
      <p className={styles.text} id="sessions-text">
        Signed in on a phone or computer you no longer use, or worried someone else is? Sign out everywhere ends every session, this one
        included; a password change signs out every other device.
      </p>
      {confirming ? (
        <div className={styles.confirm}>
          <p id="sessions-confirm" className={styles.plan}>
            Sign out on every device, this one too? You will need your password to sign in again.
          </p>
          <div className={styles.buttons}>
            <button
              ref={confirmButton}
              type="button"
              className={buttons.primary}
              aria-describedby="sessions-confirm"
              onClick={confirm}
              disabled={loading}
              aria-busy={loading || undefined}
            >
              {loading ? 'Signing out…' : 'Yes, sign out everywhere'}
            </button>
            <button type="button" className={buttons.secondary} onClick={() => setConfirming(false)} disabled={loading}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <div className={styles.buttons}>
          <button type="button" className={buttons.secondary} onClick={() => setConfirming(true)} aria-describedby="sessions-text">
            Sign out everywhere
          </button>
        </div>
      )}
      {failure ? (
        <div className={styles.alert} role="alert">
          {failure}
        </div>
      ) : null}
    </section>
  );
}

/** `/settings`: one column, no sidebar; password change, sessions, billing, and creator earnings for operators (docs/settings.md). */
export function SettingsPage() {
  const access = useQuery(LedgerAccessDocument);
  return (
    <AppShell label="Settings" columns={1}>
      <div className={styles.page}>
        <h1 className={styles.title}>Settings</h1>
        <PasswordChange />
        <SignOutEverywhere />
        <BillingSection />
        {access.data?.canReadLedger ? <EarningsSection /> : null}
      </div>
    </AppShell>
  );
}
