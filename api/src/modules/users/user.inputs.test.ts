import { describe, expect, test } from 'vitest';
import { refusal } from '../../../test/support/refusal.js';
import { USER_TYPE_CODES } from '../../shared/domain.js';
import { parseInput } from '../../shared/inputs.js';
import { messages } from '../../shared/rules.js';
import {
  agreedInput,
  locationInput,
  optInInput,
  profileChangesInput,
  searchInput,
  userNameInput,
  userNameLookupInput,
  userTypeInput,
} from './user.inputs.js';

describe('user inputs', () => {
  test('a place: latitude -90 to 90, longitude -180 to 180, rounded to seven decimals', () => {
    expect(parseInput(locationInput, { latitude: 90, longitude: -180 })).toEqual({ latitude: 90, longitude: -180 });
    expect(parseInput(locationInput, { latitude: -90, longitude: 180 })).toEqual({ latitude: -90, longitude: 180 });
    expect(parseInput(locationInput, { latitude: 52.123456789, longitude: 5e-324 })).toEqual({ latitude: 52.1234568, longitude: 0 });
    expect(Object.is(parseInput(locationInput, { latitude: -1e-9, longitude: 0 }).latitude, 0)).toBe(true);
    expect(refusal(locationInput, { latitude: 90.5, longitude: 0 })).toBe('latitude must be between -90 and 90');
    expect(refusal(locationInput, { latitude: -90.5, longitude: 0 })).toBe('latitude must be between -90 and 90');
    expect(refusal(locationInput, { latitude: 0, longitude: 180.5 })).toBe('longitude must be between -180 and 180');
    expect(refusal(locationInput, { latitude: 0, longitude: -181 })).toBe('longitude must be between -180 and 180');
    expect(refusal(locationInput, { latitude: 'north', longitude: 0 })).toBe('latitude must be a number');
  });

  test('user types by code; the yes-or-no fields named', () => {
    expect(userTypeInput.parse(USER_TYPE_CODES[0])).toBe(USER_TYPE_CODES[0]);
    expect(refusal(userTypeInput, 'wizard')).toBe(`Unknown user type; use one of: ${USER_TYPE_CODES.join(', ')}`);
    expect(refusal(agreedInput, 'yes')).toBe('is_agreed_to_conduct must be true or false');
    expect(refusal(optInInput, 'yes')).toBe('has_opted_in must be true or false');
  });

  test('profile changes: storable name and bio, a type, an image', () => {
    expect(parseInput(profileChangesInput, { displayName: ' Ana ', bio: ' hi ', userType: USER_TYPE_CODES[1] })).toEqual({
      displayName: 'Ana',
      bio: 'hi',
      userType: USER_TYPE_CODES[1],
    });
    expect(parseInput(profileChangesInput, {})).toEqual({});
    expect(refusal(profileChangesInput, { displayName: 'a\u0000' })).toBe('displayName contains a NUL character');
    expect(refusal(profileChangesInput, { bio: '\uD800' })).toBe('bio contains an unpaired surrogate (not valid Unicode)');
    expect(refusal(profileChangesInput, { image: 'picture' })).toMatch(/^image /);
    expect(parseInput(profileChangesInput, { image: Buffer.from('x') }).image).toEqual(Buffer.from('x'));
  });

  test('member search: the first 50 characters of the trimmed text', () => {
    expect(parseInput(searchInput, '  ana  ')).toBe('ana');
    expect(parseInput(searchInput, ` ${'a'.repeat(60)}`)).toBe('a'.repeat(50));
    expect(refusal(searchInput, 5)).toBe('searchString must be text');
    expect(refusal(searchInput, 'a\u0000')).toBe('The input contains a NUL character');
  });

  test('user names: the rule, storable; a lookup any text of at most 100 characters', () => {
    expect(refusal(userNameInput, 'no spaces allowed')).toBe(messages.userNameRule);
    expect(userNameLookupInput.parse(' ana ')).toBe('ana');
    expect(refusal(userNameLookupInput, 'a'.repeat(101))).toBe('The input must be at most 100 characters');
  });
});
