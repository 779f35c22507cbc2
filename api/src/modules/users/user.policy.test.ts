import { expect, test } from 'vitest';
import { activeMemberSql, suspendedSql, userPolicy } from './user.policy.js';

test('a member changes their own opt-in, named or not, and nobody else’s', () => {
  expect(() => userPolicy.assertOwnOptIn('me', 'me')).not.toThrow();
  expect(() => userPolicy.assertOwnOptIn('me', undefined)).not.toThrow();
  // A form that sends no id sends null or '': that is the member too.
  expect(() => userPolicy.assertOwnOptIn('me', null)).not.toThrow();
  expect(() => userPolicy.assertOwnOptIn('me', '')).not.toThrow();
  expect(() => userPolicy.assertOwnOptIn('me', 'you')).toThrow('your own opt-in');
  expect(() => userPolicy.assertOwnOptIn('me', 42)).toThrow('your own opt-in');
});

test('others see the cell of a member’s place; only the member sees the point they gave', () => {
  const member = { latitude: 52.5201, longitude: 13.4049, cellLatitude: 52.515, cellLongitude: 13.41 };
  expect(userPolicy.publicLocation(member)).toEqual({ latitude: 52.515, longitude: 13.41 });
  expect(userPolicy.ownLocation(member)).toEqual({ latitude: 52.5201, longitude: 13.4049 });
  expect(userPolicy.publicLocation({ cellLatitude: null, cellLongitude: null })).toBeNull();
  expect(userPolicy.ownLocation({ latitude: undefined, longitude: null })).toBeNull();
});

test('a suspension lasts until its end, or until lifted when it has none; its SQL says the same', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  expect(userPolicy.isSuspended({ suspendedAt: null, suspendedUntil: null }, now)).toBe(false);
  expect(userPolicy.isSuspended({ suspendedAt: now, suspendedUntil: null }, now)).toBe(true);
  expect(userPolicy.isSuspended({ suspendedAt: now, suspendedUntil: new Date('2026-06-01T12:00:01Z') }, now)).toBe(true);
  expect(userPolicy.isSuspended({ suspendedAt: now, suspendedUntil: now }, now)).toBe(false);
  expect(suspendedSql('u')).toBe('(u.suspended_at is not null and (u.suspended_until is null or u.suspended_until > now()))');
  expect(activeMemberSql('u')).toBe(`not ${suspendedSql('u')}`);
});
