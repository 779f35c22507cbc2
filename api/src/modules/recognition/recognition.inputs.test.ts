import { describe, expect, test } from 'vitest';
import { refusal } from '../../../test/support/refusal.js';
import { parseInput } from '../../shared/inputs.js';
import { uploadIdInput } from './recognition.inputs.js';

describe('recognition inputs', () => {
  test('an upload id: trimmed text of 1 to 500 characters', () => {
    expect(parseInput(uploadIdInput, ' abc ')).toBe('abc');
    expect(parseInput(uploadIdInput, 'u'.repeat(500))).toHaveLength(500);
    expect(refusal(uploadIdInput, '  ')).toBe('Missing: the upload id');
    expect(refusal(uploadIdInput, 'u'.repeat(501))).toBe('The input must be at most 500 characters');
  });
});
