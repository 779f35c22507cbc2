import { useMutation } from '@apollo/client/react';
import { emailSchema } from '@mixcrate/api/validation';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import buttons from '../../components/Button.module.css';
import { Logo } from '../../components/Logo';
import { TextField } from '../../components/TextField';
import { RequestPasswordResetDocument } from '../../gql/graphql';
import { validate } from '../../lib/form-errors';
import { serverMessage, UNREACHABLE } from '../../lib/server-message';
import styles from './ResetPages.module.css';

/** Message clear delay: the server's answer shows this long, then clears (docs/rules.md#timings). */
export const MESSAGE_CLEAR_MS = 2500;

const resetEmailSchema = z.object({ email: emailSchema });

interface Answer {
  text: string;
  failed: boolean;
}

/** `/signin/enter-reset-password`: one email field; 'Send email' mails a reset link and shows the server's answer (docs/accounts.md#reset-by-email). */
export function EnterResetEmailPage() {
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string>();
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [requestReset, { loading }] = useMutation(RequestPasswordResetDocument);
  const clearTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(clearTimer.current), []);

  function show(next: Answer) {
    clearTimeout(clearTimer.current);
    setAnswer(next);
    clearTimer.current = setTimeout(() => setAnswer(null), MESSAGE_CLEAR_MS);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    const validation = validate(resetEmailSchema, { email });
    setEmailError(validation.errors.email);
    if (!validation.ok) return;
    try {
      const result = await requestReset({ variables: { email: validation.data.email } });
      show({ text: result.data?.requestPasswordReset ?? '', failed: false });
    } catch (error) {
      show({ text: serverMessage(error, UNREACHABLE), failed: true });
    }
  }

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <Logo />
      </header>
      <main className={styles.main}>
        <section className={styles.card} aria-labelledby="reset-email-title">
          <h1 id="reset-email-title" className={styles.title}>
            Reset your password
          </h1>
          <form className={styles.form} onSubmit={submit} noValidate>
            <p className={styles.subtitle}>Enter the email you signed up with and we will send you a link to create a new password.</p>
            <TextField
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                setEmailError(undefined);
              }}
              error={emailError}
            />
            <div role="status">{answer && !answer.failed ? <p className={styles.notice}>{answer.text}</p> : null}</div>
            {answer?.failed ? (
              <div className={styles.alert} role="alert">
                {answer.text}
              </div>
            ) : null}
            <button type="submit" className={buttons.primary} disabled={!email.trim() || loading} aria-busy={loading || undefined}>
              {loading ? 'Sending…' : 'Send email'}
            </button>
          </form>
          <p className={styles.links}>
            <Link to="/signin">Back to login</Link>
          </p>
        </section>
      </main>
    </div>
  );
}
