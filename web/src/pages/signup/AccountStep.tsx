import { useMutation } from '@apollo/client/react';
import { signInFormSchema } from '@mixcrate/api/validation';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAuth } from '../../auth/auth';
import buttons from '../../components/Button.module.css';
import { TextField } from '../../components/TextField';
import { SignUpDocument, type SignUpProgressFragment } from '../../gql/graphql';
import { serverMessage, UNREACHABLE } from '../../lib/server-message';
import { removeStored, StorageKeys } from '../../lib/storage';
import { useFormState } from '../../lib/use-form-state';
import styles from './SignUpPage.module.css';

const EMPTY = { email: '', password: '', confirmPassword: '' };

interface AccountStepProps {
  /** The account made earlier in this sign-up, if any. */
  progress: SignUpProgressFragment | null;
  /** Where an existing account continues. */
  continueTo: string;
  onSignedUp(progress: SignUpProgressFragment): void;
  onSignOut(): void;
}

/** Sign-up step 1: email, password and confirmation (the rules (docs/accounts.md#passwords), as on sign-in) and the marketing opt-in. */
export function AccountStep({ progress, continueTo, onSignedUp, onSignOut }: AccountStepProps) {
  const auth = useAuth();
  const navigate = useNavigate();
  const [hasOptedIn, setHasOptedIn] = useState(false);
  const [signUp, { error, reset }] = useMutation(SignUpDocument);
  const form = useFormState(signInFormSchema, EMPTY, {
    onEdit: () => {
      if (error) reset();
    },
  });

  if (progress) {
    return (
      <>
        <h1 id="signup-title" className={styles.title} tabIndex={-1}>
          Your account is ready
        </h1>
        <p className={styles.subtitle}>
          You are signed up as <span className={styles.strong}>{progress.email}</span>. A few quick steps and you are in.
        </p>
        <div className={styles.actions}>
          <button
            type="button"
            className={buttons.secondary}
            onClick={() => {
              auth.signOut();
              onSignOut();
            }}
          >
            Use another email
          </button>
          <button type="button" className={buttons.primary} onClick={() => navigate(continueTo)}>
            Continue
          </button>
        </div>
      </>
    );
  }

  async function submit({ email, password }: { email: string; password: string }) {
    try {
      const result = await signUp({ variables: { input: { email, password, hasOptedIn } } });
      const session = result.data?.signUp;
      if (!session) return;
      // A user type stored by an earlier account on this browser must not count as this account's choice.
      removeStored(StorageKeys.userType);
      auth.signIn({ token: session.token, userName: session.viewer.userName });
      onSignedUp(session.viewer);
    } catch {
      // The mutation's `error` shows the server's message.
    }
  }

  return (
    <>
      <h1 id="signup-title" className={styles.title} tabIndex={-1}>
        Create your account
      </h1>
      <form className={styles.form} onSubmit={form.submitWith(submit)} noValidate>
        <p className={styles.subtitle}>Join the closed beta: upload mixes, get tracklists matched, find sets near you.</p>
        <TextField label="Email" type="email" autoComplete="email" inputMode="email" {...form.field('email')} />
        <TextField label="Password" type="password" autoComplete="new-password" {...form.field('password')} />
        <TextField label="Confirm password" type="password" autoComplete="new-password" {...form.field('confirmPassword')} />
        <label className={styles.check}>
          <input type="checkbox" name="hasOptedIn" checked={hasOptedIn} onChange={(event) => setHasOptedIn(event.target.checked)} />
          <span>Send me news about mixcrate: new features, events and offers (optional)</span>
        </label>
        {error ? (
          <div className={styles.alert} role="alert">
            {serverMessage(error, UNREACHABLE)}
          </div>
        ) : null}
        <button type="submit" className={buttons.primary} disabled={form.submitting} aria-busy={form.submitting || undefined}>
          {form.submitting ? 'Creating account…' : 'Create account'}
        </button>
      </form>
      <p className={styles.switch}>
        Already have an account? <Link to="/signin">Login</Link>
      </p>
    </>
  );
}
