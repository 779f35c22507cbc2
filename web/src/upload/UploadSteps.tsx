import styles from './Upload.module.css';

/** Upload flow: the four steps, in order (docs/upload.md#steps). */
export const UPLOAD_STEPS = ['Mix upload', 'Add tracks', 'Confirm tracks', 'Payment'] as const;

/** The four-step progress bar: steps before the current one are done. */
export function UploadSteps({ current }: { current: 1 | 2 | 3 | 4 }) {
  return (
    <nav aria-label="Upload progress">
      <ol className={styles.steps}>
        {UPLOAD_STEPS.map((label, index) => {
          const step = index + 1;
          const className = [styles.step, step < current ? styles.stepDone : '', step === current ? styles.stepCurrent : ''].join(' ');
          return (
            <li key={label} className={className} aria-current={step === current ? 'step' : undefined}>
              <span>
                <span className={styles.visuallyHidden}>Step {step}: </span>
                {label}
                {step < current ? <span className={styles.visuallyHidden}> (done)</span> : null}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
