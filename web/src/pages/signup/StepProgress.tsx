import styles from './SignUpPage.module.css';
import { SIGN_UP_STEPS, type SignUpStepId, stepIndex } from './sign-up-steps';

/** Where the member is in sign-up: "Step n of 5" plus a row of the steps, done ones filled. */
export function StepProgress({ current, open }: { current: SignUpStepId; open: SignUpStepId | 'done' }) {
  const currentIndex = stepIndex(current);
  const openIndex = open === 'done' ? SIGN_UP_STEPS.length : stepIndex(open);
  return (
    <div className={styles.progress}>
      <p className={styles.progressText}>
        Step {currentIndex + 1} of {SIGN_UP_STEPS.length}
        <span aria-hidden="true"> · </span>
        <span className={styles.progressLabel}>{SIGN_UP_STEPS[currentIndex].label}</span>
      </p>
      <ol className={styles.progressSteps} aria-label="Sign-up steps">
        {SIGN_UP_STEPS.map((step, index) => {
          const done = index < openIndex && index !== currentIndex;
          return (
            <li
              key={step.id}
              className={[styles.progressStep, done ? styles.stepDone : '', index === currentIndex ? styles.stepCurrent : ''].join(' ')}
              aria-current={index === currentIndex ? 'step' : undefined}
            >
              <span className={styles.stepName}>
                {step.label}
                {done ? <span className={styles.visuallyHidden}> (done)</span> : null}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
