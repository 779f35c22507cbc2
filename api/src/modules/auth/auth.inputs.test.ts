import { describe, expect, test } from 'vitest';
import { refusal } from '../../../test/support/refusal.js';
import { parseInput } from '../../shared/inputs.js';
import { messages } from '../../shared/rules.js';
import { authMessages } from './auth.errors.js';
import { currentPasswordInput, resetInput, signInInput, signUpInput } from './auth.inputs.js';

describe('auth inputs', () => {
  test('sign-up: an email, a password by the rule, the opt-in false unless given', () => {
    expect(parseInput(signUpInput, { email: ' a@b.co ', password: 'Abcdef1!' })).toEqual({
      email: 'a@b.co',
      password: 'Abcdef1!',
      hasOptedIn: false,
    });
    expect(parseInput(signUpInput, { email: 'a@b.co', password: 'Abcdef1!', hasOptedIn: true }).hasOptedIn).toBe(true);
    expect(refusal(signUpInput, { email: 'a@\u0000b.co', password: 'Abcdef1!' })).toBe(messages.email);
    expect(refusal(signUpInput, { email: 'a@b.co', password: 'Abcdef1!\u0000' })).toBe(messages.passwordRule);
  });

  test('sign-in: any password of 1 to 128 characters, trimmed', () => {
    expect(parseInput(signInInput, { email: 'a@b.co', password: ' old ' })).toEqual({ email: 'a@b.co', password: 'old' });
    expect(currentPasswordInput.parse('p'.repeat(128))).toHaveLength(128);
    // The field's one message stands for every refusal of it, too long included.
    expect(refusal(currentPasswordInput, 'p'.repeat(129))).toBe(messages.passwordRequired);
    for (const password of ['  ', undefined, 5])
      expect(refusal(signInInput, { email: 'a@b.co', password })).toBe(messages.passwordRequired);
    expect(refusal(currentPasswordInput, 'a\u0000')).toBe('The input contains a NUL character');
  });

  test('reset: the token of the link, at most 200 characters, and a new password by the rule', () => {
    const reset = { email: 'a@b.co', token: ' t0k ', newPassword: 'Abcdef1!' };
    expect(parseInput(resetInput, reset)).toEqual({ ...reset, token: 't0k' });
    expect(parseInput(resetInput, { ...reset, token: 't'.repeat(200) }).token).toHaveLength(200);
    for (const token of ['t'.repeat(201), '  ', undefined])
      expect(refusal(resetInput, { ...reset, token })).toBe(authMessages.resetTokenMissing);
    expect(refusal(resetInput, { ...reset, token: '\u0000' })).toBe('token contains a NUL character');
    expect(refusal(resetInput, { ...reset, newPassword: 'short' })).toBe(messages.passwordRule);
  });
});
