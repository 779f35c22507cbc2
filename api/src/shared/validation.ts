import { z } from 'zod';

/**
 * SPEC §5's rules with its exact messages. The server enforces them and the web client imports this file,
 * so both sides say the same words.
 */
export const messages = {
  passwordRequired: 'Please enter a password',
  passwordRule: 'Passwords must be min. 8 chars, one capital letter, one number, and one special character',
  confirmRequired: 'Please confirm your password',
  passwordsDiffer: 'Passwords do not match',
  email: 'Please enter a valid email',
  userNameRule: 'Usernames are 3 to 30 letters, digits, _ . or -',
  bioTooLong: 'Bio must be at most 180 characters',
  displayNameTooLong: 'Display name must be at most 50 characters',
} as const;

/** SPEC §5 profile image: jpg, jpeg, gif or png, at most 2,000,000 bytes (checked by the browser and by content on the server). */
export const PROFILE_IMAGE = {
  maxBytes: 2_000_000,
  extensions: ['jpg', 'jpeg', 'gif', 'png'],
  wrongFormat: 'Wrong format! Try .jpg .png or .gif',
  tooLarge: 'File too large (max. 2MB)',
  invalid: 'Invalid file',
} as const;
export const BIO_MAX = 180;
export const DISPLAY_NAME_MAX = 50;

/**
 * Location privacy (issue 26), as the privacy page states it: others see the centre of a grid cell about this many km
 * across (the grid is drawn in Migration20261204000000_location_cells), and a member changes their place at most this
 * many times an hour.
 */
export const LOCATION_CELL_KM = 2;
export const LOCATION_CHANGES_PER_HOUR = 5;

const PASSWORD_PATTERN = /^(?=.*[A-Z])(?=.*\d)(?=.*[!@#$%^&*_])[A-Za-z\d!@#$%^&*_]{8,}$/;
// Deliberately simple: one @, something before it, a dotted domain after it, no spaces.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const USER_NAME_PATTERN = /^[A-Za-z0-9_.-]{3,30}$/;

const trimmed = z.string({ error: messages.passwordRequired }).trim();

export const passwordSchema = trimmed
  .min(1, messages.passwordRequired)
  .max(128, messages.passwordRule)
  .regex(PASSWORD_PATTERN, messages.passwordRule);

export const emailSchema = z
  .string({ error: messages.email })
  .trim()
  .max(254, messages.email)
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
