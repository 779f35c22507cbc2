import { z } from 'zod';
import { storable } from '../../shared/inputs.js';
import { messages, PASSWORD_RULE } from '../../shared/rules.js';
import { emailSchema, passwordSchema } from '../../shared/validation.js';
import { authMessages } from './auth.errors.js';

/** The input schema of every auth operation (the rules and words in docs/accounts.md#passwords come from shared/rules and shared/validation). */

export const emailInput = storable(emailSchema, messages.email);
export const passwordInput = storable(passwordSchema, messages.passwordRule);

export const signUpInput = z.object({ email: emailInput, password: passwordInput, hasOptedIn: z.boolean().default(false) });

/** A password as typed when signing in or checking it: any text (an old password may predate today's rules). */
export const currentPasswordInput = storable(
  z.string({ error: messages.passwordRequired }).trim().min(1, messages.passwordRequired).max(PASSWORD_RULE.maxLength),
);

export const signInInput = z.object({ email: emailInput, password: currentPasswordInput });

export const resetInput = z.object({
  email: emailInput,
  token: storable(z.string({ error: authMessages.resetTokenMissing }).trim().min(1, authMessages.resetTokenMissing).max(200)),
  newPassword: passwordInput,
});
