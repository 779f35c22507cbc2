import { expect, test } from 'vitest';
import { notificationPolicy } from './notification.policy.js';

test('a member reads only their own notifications; anyone else’s reads as not found', () => {
  expect(() => notificationPolicy.assertIsRecipient('me', 'me')).not.toThrow();
  expect(() => notificationPolicy.assertIsRecipient('you', 'me')).toThrow('Notification not found');
  expect(() => notificationPolicy.assertIsRecipient(undefined, 'me')).toThrow('Notification not found');
});
