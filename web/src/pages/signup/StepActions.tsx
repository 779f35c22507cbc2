import { useNavigate } from 'react-router';
import buttons from '../../components/Button.module.css';
import styles from './SignUpPage.module.css';

interface StepActionsProps {
  /** Where Back goes; no Back button without it. */
  back?: string;
  label: string;
  busyLabel: string;
  busy: boolean;
}

/** A step's Back and submit buttons; the submit shows its busy state while the step saves. */
export function StepActions({ back, label, busyLabel, busy }: StepActionsProps) {
  const navigate = useNavigate();
  return (
    <div className={styles.actions}>
      {back ? (
        <button type="button" className={buttons.secondary} onClick={() => navigate(back)} disabled={busy}>
          Back
        </button>
      ) : null}
      <button type="submit" className={buttons.primary} disabled={busy} aria-busy={busy || undefined}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}
