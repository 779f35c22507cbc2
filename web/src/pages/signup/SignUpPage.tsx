import { useQuery } from '@apollo/client/react';
import { useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { useAuth } from '../../auth/auth';
import buttons from '../../components/Button.module.css';
import { Logo } from '../../components/Logo';
import { Spinner } from '../../components/Spinner';
import { SignUpProgressDocument, type SignUpProgressFragment } from '../../gql/graphql';
import { serverMessage, serverStatus, UNREACHABLE } from '../../lib/server-message';
import { readStored, StorageKeys } from '../../lib/storage';
import { AccountStep } from './AccountStep';
import { ConductStep } from './ConductStep';
import { LocationStep } from './LocationStep';
import styles from './SignUpPage.module.css';
import { StepProgress } from './StepProgress';
import { firstOpenStep, SIGN_UP_STEPS, type SignUpStep, stepById, stepFromParam, stepIndex } from './sign-up-steps';
import { UserNameStep } from './UserNameStep';
import { UserTypeStep } from './UserTypeStep';

/**
 * Sign-up (docs/accounts.md#sign-up): `/signup` (email, password, opt-in), then `/signup/username`, `/location`, `/user-type` and
 * `/conduct`; the last one assigns a random mix and goes to /home. A URL ahead of what is done sends the member to the
 * first open step, so a reload or a return visit resumes where they left off.
 */
export function SignUpPage() {
  const step = stepFromParam(useParams().step);
  const navigate = useNavigate();
  const auth = useAuth();
  // The server's progress is read only for a session that existed on arrival (a reload, a return visit). After a
  // sign-up on this page each step's answer carries the progress instead: a query started as the session begins
  // would be cut off when GraphQLBoundary empties the cache for the new session.
  const [sessionOnArrival] = useState(auth.token);
  const progressQuery = useQuery(SignUpProgressDocument, { skip: !sessionOnArrival, fetchPolicy: 'network-only' });
  const [answered, setAnswered] = useState<SignUpProgressFragment | null>(null);
  const [storedUserType, setStoredUserType] = useState(() => readStored(StorageKeys.userType));
  const arrivalSession = auth.token !== null && auth.token === sessionOnArrival;
  const sessionRejected = arrivalSession && serverStatus(progressQuery.error) === 401;
  const serverProgress = arrivalSession && !sessionRejected ? (progressQuery.data?.me ?? null) : null;
  const progress = auth.token ? (answered ?? serverProgress) : null;
  const waiting = arrivalSession && !answered && !sessionRejected && (progressQuery.loading || Boolean(progressQuery.error));

  // A stored token the server no longer accepts (expired, account gone) would block the sign-up call too.
  useEffect(() => {
    if (sessionRejected) auth.signOut();
  }, [sessionRejected, auth]);

  // Moving between steps puts focus on the new step's heading, so screen readers announce it.
  const shownStep = useRef(step?.id);
  useEffect(() => {
    if (shownStep.current === step?.id) return;
    shownStep.current = step?.id;
    document.getElementById('signup-title')?.focus();
  }, [step?.id]);

  if (!step) return <Navigate to="/signup" replace />;

  const open = firstOpenStep(progress, storedUserType);
  if (!waiting) {
    if (open === 'done' && step.id === 'account') return <Navigate to="/home" replace />;
    if (open !== 'done' && stepIndex(step.id) > stepIndex(open)) return <Navigate to={stepById(open).path} replace />;
  }

  const advance = (from: SignUpStep) => (answer: SignUpProgressFragment) => {
    setAnswered(answer);
    navigate(SIGN_UP_STEPS[stepIndex(from.id) + 1].path);
  };

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <Logo />
      </header>
      <main className={styles.main}>
        <section className={styles.card} aria-labelledby="signup-title">
          {waiting ? null : <StepProgress current={step.id} open={open} />}
          {waiting ? (
            progressQuery.error ? (
              <>
                <h1 id="signup-title" className={styles.title} tabIndex={-1}>
                  Sign up
                </h1>
                <div className={styles.alert} role="alert">
                  {serverMessage(progressQuery.error, UNREACHABLE)}
                </div>
                <button type="button" className={buttons.primary} onClick={() => void progressQuery.refetch()}>
                  Try again
                </button>
              </>
            ) : (
              <Spinner label="Loading your sign-up" />
            )
          ) : step.id === 'account' ? (
            <AccountStep
              progress={progress}
              continueTo={open === 'done' ? '/home' : stepById(open).path}
              onSignedUp={(answer) => {
                setStoredUserType(null);
                advance(step)(answer);
              }}
              onSignOut={() => {
                setAnswered(null);
                setStoredUserType(null);
              }}
            />
          ) : progress === null ? null : step.id === 'username' ? (
            <UserNameStep progress={progress} onSaved={advance(step)} />
          ) : step.id === 'location' ? (
            <LocationStep progress={progress} onSaved={advance(step)} />
          ) : step.id === 'user-type' ? (
            <UserTypeStep
              progress={progress}
              onSaved={(answer, code) => {
                setStoredUserType(code);
                advance(step)(answer);
              }}
            />
          ) : (
            <ConductStep />
          )}
        </section>
      </main>
    </div>
  );
}
