import { type InputHTMLAttributes, useId, useState } from 'react';
import styles from './PasswordField.module.css';
import fieldStyles from './TextField.module.css';

export interface PasswordFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  label: string;
  /** Shown under the field, announced with it, and marks the field invalid. */
  error?: string | null;
}

/**
 * A labelled password input (same look as TextField) with a Show/Hide toggle. The toggle's name starts with its
 * visible word and names its field ("Show new password"), so two toggles on one form stay distinguishable.
 */
export function PasswordField({ label, error, className, ...input }: PasswordFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const [visible, setVisible] = useState(false);
  return (
    <div className={[fieldStyles.field, className].filter(Boolean).join(' ')}>
      <label htmlFor={id} className={fieldStyles.label}>
        {label}
      </label>
      <div className={styles.control}>
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          className={fieldStyles.input}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...input}
        />
        <button type="button" className={styles.toggle} aria-controls={id} onClick={() => setVisible((shown) => !shown)}>
          {visible ? 'Hide' : 'Show'} <span className={styles.visuallyHidden}>{label.toLowerCase()}</span>
        </button>
      </div>
      {error ? (
        <p id={errorId} className={fieldStyles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
