import { z } from 'zod';
import { BIO_MAX, DISPLAY_NAME_MAX, EMAIL_MAX, messages, PASSWORD_PATTERN, PASSWORD_RULE, USER_NAME_PATTERN } from './rules.js';

/**
 * The rules in docs/rules.md#limits (rules.ts) as zod schemas with its exact messages. The server enforces them and the web client
 * imports this file, so both sides say the same words.
 */

// Deliberately simple: one @, something before it, a dotted domain after it, no spaces.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const trimmed = z.string({ error: messages.passwordRequired }).trim();

export const passwordSchema = trimmed
  .min(1, messages.passwordRequired)
  .max(PASSWORD_RULE.maxLength, messages.passwordRule)
  .regex(PASSWORD_PATTERN, messages.passwordRule);

export const emailSchema = z
  .string({ error: messages.email })
  .trim()
  .max(EMAIL_MAX, messages.email)
  .regex(EMAIL_PATTERN, messages.email)
  .transform((email) => email.toLowerCase());

export const userNameSchema = z.string({ error: messages.userNameRule }).trim().regex(USER_NAME_PATTERN, messages.userNameRule);

export const bioSchema = z.string().trim().max(BIO_MAX, messages.bioTooLong);
export const displayNameSchema = z.string().trim().max(DISPLAY_NAME_MAX, messages.displayNameTooLong);

/** The sign-in, sign-up and create-password forms: a password and its confirmation. */
export const passwordWithConfirmationSchema = z
  .object({
    password: passwordSchema,
    confirmPassword: z.string().trim().min(1, messages.confirmRequired),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: messages.passwordsDiffer,
    path: ['confirmPassword'],
  });

export const signInFormSchema = z.intersection(z.object({ email: emailSchema }), passwordWithConfirmationSchema);

/** The first message of a failed parse: what a form or an API answer shows. */
export function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input';
}
