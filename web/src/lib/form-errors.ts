import type { z } from 'zod';

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

export type Validation<Schema extends z.ZodType, Field extends string> =
  | { ok: true; data: z.output<Schema>; errors: FieldErrors<Field> }
  | { ok: false; data?: undefined; errors: FieldErrors<Field> };

/** Runs a shared zod schema over a form's values and keeps the first message per field (the one a form shows). */
export function validate<Schema extends z.ZodType, Field extends string>(
  schema: Schema,
  values: Record<Field, unknown>,
): Validation<Schema, Field> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data, errors: {} };
  const errors: FieldErrors<Field> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && field in values && !errors[field as Field]) errors[field as Field] = issue.message;
  }
  return { ok: false, errors };
}
