import { type ChangeEvent, type FormEvent, useRef, useState } from 'react';
import type { z } from 'zod';
import { validate } from './form-errors';

/** What a TextField or PasswordField takes for one field of the form. */
export interface FormFieldProps {
  name: string;
  value: string;
  error: string | undefined;
  onChange(event: ChangeEvent<HTMLInputElement>): void;
  onBlur(): void;
}

export interface FormStateOptions {
  /** Called on every edit: a form clears the server's last refusal here, since it was about other values. */
  onEdit?(): void;
}

export interface FormState<Schema extends z.ZodType, Field extends string> {
  /** The field's props; its error shows once the field has been left or the form submitted, not while the member types. */
  field(name: Field): FormFieldProps;
  /**
   * The form's onSubmit: shows every error, and runs `send` with the parsed (trimmed) values only when they pass. `send`
   * deals with its own failures (the page shows them); once it ends, either way, the form can be submitted again.
   */
  submitWith(send: (data: z.output<Schema>) => Promise<void> | void): (event: FormEvent<HTMLFormElement>) => void;
  /** True while `send` runs; a second submit meanwhile is ignored. */
  submitting: boolean;
}

/**
 * The state of a form checked with one of the shared zod schemas (`@mixcrate/api/validation`, docs/accounts.md#passwords): the values as
 * typed, which fields were left, whether it was submitted, and whether a submission is under way.
 */
export function useFormState<Field extends string, Schema extends z.ZodType<unknown, Record<Field, string>>>(
  schema: Schema,
  initialValues: Record<Field, string>,
  options: FormStateOptions = {},
): FormState<Schema, Field> {
  const [values, setValues] = useState(initialValues);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  // State alone would let a double click through: the second event arrives before the re-render.
  const inFlight = useRef(false);

  const validation = validate(schema, values);

  const field = (name: Field): FormFieldProps => ({
    name,
    value: values[name],
    error: submitted || touched[name] ? validation.errors[name] : undefined,
    onChange: (event) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [name]: value }));
      options.onEdit?.();
    },
    onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
  });

  const submitWith = (send: (data: z.output<Schema>) => Promise<void> | void) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (!validation.ok || inFlight.current) return;
    const data = validation.data;
    inFlight.current = true;
    setSubmitting(true);
    const run = async () => {
      try {
        await send(data);
      } finally {
        inFlight.current = false;
        setSubmitting(false);
      }
    };
    void run();
  };

  return { field, submitWith, submitting };
}
