import { expect, test } from 'vitest';
import { followPolicy } from './follow.policy.js';

test('a member lists their own follows and nobody else’s', () => {
  expect(() => followPolicy.assertCanList('me', 'me')).not.toThrow();
  expect(() => followPolicy.assertCanList('you', 'me')).toThrow('You can only list your own follows');
});
