import { describe, expect, test } from 'vitest';
import {
  COVER_RULE,
  hints,
  imageProblem,
  isWithinSize,
  LOCATION_RULE,
  MP3_RULE,
  messages,
  missingUploadItems,
  mp3Problem,
  normaliseBetaCode,
  PASSWORD_PATTERN,
  PROFILE_IMAGE_RULE,
  TRACKLIST_MISSING_FIELDS,
  USER_NAME_PATTERN,
} from './rules.js';

describe('file sizes: at most the limit (docs/rules.md)', () => {
  test('a file of exactly the limit is taken, one byte more is not', () => {
    expect(isWithinSize(314_572_800, MP3_RULE.maxBytes)).toBe(true);
    expect(isWithinSize(314_572_801, MP3_RULE.maxBytes)).toBe(false);
    expect(mp3Problem({ type: 'audio/mpeg', size: 314_572_800 })).toBeNull();
    expect(mp3Problem({ type: 'audio/mpeg', size: 314_572_801 })).toBe('File too large (max. 300MB)');
    expect(imageProblem(COVER_RULE, { name: 'a.png', size: 5_242_880 })).toBeNull();
    expect(imageProblem(COVER_RULE, { name: 'a.png', size: 5_242_881 })).toBe('File too large (max. 5MB)');
    expect(imageProblem(PROFILE_IMAGE_RULE, { name: 'a.png', size: 2_000_000 })).toBeNull();
    expect(imageProblem(PROFILE_IMAGE_RULE, { name: 'a.png', size: 2_000_001 })).toBe('File too large (max. 2MB)');
  });

  test('the format is judged before the size', () => {
    expect(mp3Problem({ type: 'audio/wav', size: 400_000_000 })).toBe('Wrong format! Try MP3');
    expect(imageProblem(COVER_RULE, { name: 'a.bmp', size: 9_000_000 })).toBe('Wrong format! Use .jpg, .png, .gif, or .webp');
    expect(imageProblem(PROFILE_IMAGE_RULE, { name: 'a.webp', size: 10 })).toBe('Wrong format! Try .jpg .png or .gif');
  });

  test("the pickers' accept lists and the hints are built from the formats and sizes", () => {
    expect(COVER_RULE.extensions).toEqual(['jpg', 'jpeg', 'png', 'gif', 'webp']);
    expect(COVER_RULE.accept).toBe('.jpg,.jpeg,.png,.gif,.webp,image/jpeg,image/png,image/gif,image/webp');
    expect(COVER_RULE.hint).toBe('.jpg, .png, .gif or .webp, up to 5MB');
    expect(PROFILE_IMAGE_RULE.accept).toBe('.jpg,.jpeg,.png,.gif,image/jpeg,image/png,image/gif');
    expect(PROFILE_IMAGE_RULE.hint).toBe('.jpg, .png or .gif, up to 2MB');
    expect(MP3_RULE.hint).toBe('No MP3 chosen (max. 300MB)');
  });
});

describe('accounts (docs/rules.md#limits)', () => {
  test('passwords: 8 or more of letters, digits and !@#$%^&*_, with a capital, a digit and a symbol', () => {
    for (const good of ['Abcdef1!', 'ZZZZZZ9_', 'Long3r^Password&']) expect(PASSWORD_PATTERN.test(good)).toBe(true);
    for (const bad of ['Abcde1!', 'abcdef1!', 'Abcdefg!', 'Abcdefg1', 'Abcdef1!-', 'Abcdef1! '])
      expect(PASSWORD_PATTERN.test(bad)).toBe(false);
    expect(hints.password).toBe('Min. 8 characters, with a capital letter, a number and one of !@#$%^&*_');
    expect(messages.passwordRule).toBe('Passwords must be min. 8 chars, one capital letter, one number, and one special character');
  });

  test('user names: 3 to 30 letters, digits, _ . or -', () => {
    for (const good of ['ana', 'dj_ana.b-2', 'a'.repeat(30)]) expect(USER_NAME_PATTERN.test(good)).toBe(true);
    for (const bad of ['an', 'a'.repeat(31), 'ana b', 'ana!', 'añá']) expect(USER_NAME_PATTERN.test(bad)).toBe(false);
    expect(messages.userNameRule).toBe('Usernames are 3 to 30 letters, digits, _ . or -');
    expect(hints.userName).toBe('3 to 30 letters, digits, _ . or -');
  });
});

test('location bounds and their words', () => {
  expect(LOCATION_RULE.latitude).toEqual({
    limit: 90,
    notANumber: 'latitude must be a number',
    outOfRange: 'latitude must be between -90 and 90',
  });
  expect(LOCATION_RULE.longitude.outOfRange).toBe('longitude must be between -180 and 180');
});

test('a BETA code is compared trimmed and lower-cased', () => {
  expect(normaliseBetaCode('  FREE-Mix ')).toBe('free-mix');
});

describe('the upload form (docs/upload.md#file-rules)', () => {
  test('the missing items in order, joined with +; none missing is null', () => {
    const none = { cover: false, title: false, mp3: false, genre: false };
    expect(missingUploadItems(none)).toBe('Cover Image + Title + MP3 audio file + Genre');
    expect(missingUploadItems({ ...none, cover: true, mp3: true })).toBe('Title + Genre');
    expect(missingUploadItems({ cover: true, title: true, mp3: true, genre: false })).toBe('Genre');
    expect(missingUploadItems({ cover: true, title: true, mp3: true, genre: true })).toBeNull();
    expect(TRACKLIST_MISSING_FIELDS).toBe('Missing: Empty fields');
  });

  test('an image that does not decode, and a name without an ending', () => {
    expect(COVER_RULE.invalid).toBe('Invalid file');
    expect(PROFILE_IMAGE_RULE.invalid).toBe('Invalid file');
    expect(imageProblem(COVER_RULE, { name: 'cover', size: 10 })).toBe(COVER_RULE.wrongFormat);
    expect(imageProblem(COVER_RULE, { name: 'COVER.JPG', size: 10 })).toBeNull();
  });
});
