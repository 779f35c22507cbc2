import { expect, test } from 'vitest';
import { userPolicy } from './user.policy.js';

test('a member changes their own opt-in, named or not, and nobody else’s', () => {
  expect(() => userPolicy.assertOwnOptIn('me', 'me')).not.toThrow();
  expect(() => userPolicy.assertOwnOptIn('me', undefined)).not.toThrow();
  expect(() => userPolicy.assertOwnOptIn('me', 'you')).toThrow('your own opt-in');
  expect(() => userPolicy.assertOwnOptIn('me', 42)).toThrow('your own opt-in');
});
