import { useMutation } from '@apollo/client/react';
import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { AgreeToConductDocument, AssignRandomMixDocument } from '../../gql/graphql';
import { serverMessage, UNREACHABLE } from '../../lib/server-message';
import styles from './SignUpPage.module.css';
import { StepActions } from './StepActions';

export const MUST_AGREE = 'Please agree to the code of conduct to continue';

const RULES = [
  { title: 'Respect people', text: 'No harassment, hate speech or threats, in mixes, titles, bios or anywhere else.' },
  { title: 'Upload what you may share', text: 'Only upload mixes you made and have the right to share.' },
  { title: 'Credit the music', text: 'Keep tracklists honest, so the artists in your mix get found and paid.' },
  { title: 'Be yourself', text: 'One account per person; no impersonating other DJs, artists or labels.' },
  { title: 'Keep it safe', text: 'No spam, scams or links to harmful content. Report what breaks these rules.' },
] as const;

/**
 * Sign-up step 5: agree to the code of conduct. Then the member gets a random mix as the current mix (docs/accounts.md#sign-up) and
 * goes home, where the player has it ready.
 */
export function ConductStep() {
  const navigate = useNavigate();
  const errorId = useId();
  const [agreed, setAgreed] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [agree, agreement] = useMutation(AgreeToConductDocument);
  const [assignRandomMix, assignment] = useMutation(AssignRandomMixDocument);
  const busy = agreement.loading || assignment.loading;
  const failure = agreement.error ?? assignment.error;
  const mustAgree = submitted && !agreed;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    if (!agreed || busy) return;
    try {
      await agree();
      await assignRandomMix();
      navigate('/home');
    } catch {
      // The hooks' errors show the server's message; the ticked box stays ticked for another try.
    }
  }

  return (
    <>
      <h1 id="signup-title" className={styles.title} tabIndex={-1}>
        Code of conduct
      </h1>
      <form className={styles.form} onSubmit={submit} noValidate>
        <p className={styles.subtitle}>mixcrate is a place for people who love DJ mixes. To keep it that way, everyone agrees to this:</p>
        <ol className={styles.rules}>
          {RULES.map((rule) => (
            <li key={rule.title}>
              <strong>{rule.title}.</strong> {rule.text}
            </li>
          ))}
        </ol>
        <div>
          <label className={styles.check}>
            <input
              type="checkbox"
              name="agreed"
              checked={agreed}
              onChange={(event) => setAgreed(event.target.checked)}
              aria-invalid={mustAgree || undefined}
              aria-describedby={mustAgree ? errorId : undefined}
            />
            <span>I agree to the mixcrate code of conduct</span>
          </label>
          {mustAgree ? (
            <p id={errorId} className={styles.fieldError}>
              {MUST_AGREE}
            </p>
          ) : null}
        </div>
        {failure ? (
          <div className={styles.alert} role="alert">
            {serverMessage(failure, UNREACHABLE)}
          </div>
        ) : null}
        <StepActions back="/signup/user-type" label="Finish" busyLabel="Finishing…" busy={busy} />
      </form>
    </>
  );
}
