import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { messages } from './rules.js';
import {
  bioSchema,
  displayNameSchema,
  emailSchema,
  firstMessage,
  passwordSchema,
  passwordWithConfirmationSchema,
  signInFormSchema,
  userNameSchema,
} from './validation.js';

/** The message a schema answers for a value, or null when it takes it. */
function refusal(schema: { safeParse(value: unknown): { success: boolean; error?: unknown } }, value: unknown): string | null {
  const result = schema.safeParse(value) as { success: true } | { success: false; error: Parameters<typeof firstMessage>[0] };
  return result.success ? null : firstMessage(result.error);
}

describe('passwords (docs/accounts.md#passwords)', () => {
  test('length alone: 7 characters meeting every other rule are refused, 8 are taken', () => {
    // Ab1!xyz has a capital, a digit and a symbol, only allowed characters: the length is its only fault.
    expect(refusal(passwordSchema, 'Ab1!xyz')).toBe(messages.passwordRule);
    expect(refusal(passwordSchema, 'Ab1!xyzw')).toBeNull();
    expect(refusal(passwordWithConfirmationSchema, { password: 'Ab1!xyz', confirmPassword: 'Ab1!xyz' })).toBe(messages.passwordRule);
    expect(refusal(signInFormSchema, { email: 'a@b.co', password: 'Ab1!xyz', confirmPassword: 'Ab1!xyz' })).toBe(messages.passwordRule);
    expect(refusal(signInFormSchema, { email: 'a@b', password: 'Ab1!xyzw', confirmPassword: 'Ab1!xyzw' })).toBe(messages.email);
    expect(signInFormSchema.parse({ email: ' A@B.co', password: 'Ab1!xyzw', confirmPassword: 'Ab1!xyzw' })).toMatchObject({
      email: 'a@b.co',
    });
  });

  test('each other rule alone, and the cap of 128', () => {
    for (const bad of ['ab1!xyzw', 'Abc!xyzw', 'Ab1cxyzw', 'Ab1!xyz w', 'Ab1!xyz-'])
      expect(refusal(passwordSchema, bad), bad).toBe(messages.passwordRule);
    expect(refusal(passwordSchema, `Ab1!${'x'.repeat(124)}`)).toBeNull();
    expect(refusal(passwordSchema, `Ab1!${'x'.repeat(125)}`)).toBe(messages.passwordRule);
  });

  test('empty, blank or missing is "Please enter a password"; surrounding spaces are trimmed', () => {
    expect(refusal(passwordSchema, '')).toBe(messages.passwordRequired);
    expect(refusal(passwordSchema, '   ')).toBe(messages.passwordRequired);
    expect(refusal(passwordSchema, undefined)).toBe(messages.passwordRequired);
    expect(passwordSchema.parse('  Ab1!xyzw ')).toBe('Ab1!xyzw');
  });

  test('the confirmation: required, and the same password', () => {
    expect(refusal(passwordWithConfirmationSchema, { password: 'Ab1!xyzw', confirmPassword: ' ' })).toBe(messages.confirmRequired);
    const differ = passwordWithConfirmationSchema.safeParse({ password: 'Ab1!xyzw', confirmPassword: 'Ab1!xyzv' });
    expect(differ.success).toBe(false);
    expect(differ.error?.issues[0]).toMatchObject({ message: messages.passwordsDiffer, path: ['confirmPassword'] });
    expect(refusal(passwordWithConfirmationSchema, { password: 'Ab1!xyzw', confirmPassword: ' Ab1!xyzw ' })).toBeNull();
  });
});

describe('emails, user names, bio and display name (docs/rules.md#limits)', () => {
  test('an email: one @, something before it, a dotted domain, no spaces, at most 254; lower-cased', () => {
    expect(emailSchema.parse(' Dj.Ana@Example.COM ')).toBe('dj.ana@example.com');
    for (const bad of ['ana', '@b.co', 'a@', 'a@b', 'a b@c.de', 'a@b .co', 'a@b.co x', 'a@b.co@x', 'a@@b.co', 'a@b.', undefined])
      expect(refusal(emailSchema, bad), String(bad)).toBe(messages.email);
    const longest = `${'a'.repeat(248)}@b.com`;
    expect(longest).toHaveLength(254);
    expect(refusal(emailSchema, longest)).toBeNull();
    expect(refusal(emailSchema, `a${longest}`)).toBe(messages.email);
  });

  test('a user name: the pattern, trimmed, with the documented words', () => {
    expect(userNameSchema.parse(' dj_ana ')).toBe('dj_ana');
    expect(refusal(userNameSchema, 'a b')).toBe(messages.userNameRule);
    expect(refusal(userNameSchema, 42)).toBe(messages.userNameRule);
  });

  test('bio at most 180 and display name at most 50 characters, after trimming', () => {
    expect(refusal(bioSchema, ` ${'b'.repeat(180)} `)).toBeNull();
    expect(refusal(bioSchema, 'b'.repeat(181))).toBe(messages.bioTooLong);
    expect(refusal(displayNameSchema, ` ${'d'.repeat(50)} `)).toBeNull();
    expect(refusal(displayNameSchema, 'd'.repeat(51))).toBe(messages.displayNameTooLong);
  });

  test('a failed parse without issues still says something', () => {
    expect(firstMessage(new z.ZodError([]))).toBe('Invalid input');
  });
});
