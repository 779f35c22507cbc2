import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { InvalidInputError } from '../../shared/errors.js';
import { parseInput } from '../../shared/inputs.js';
import { uploadIdInput } from './recognition.inputs.js';

const refusal = (schema: z.ZodType, value: unknown): string => {
  try {
    parseInput(schema, value);
  } catch (error) {
    if (error instanceof InvalidInputError) return error.message;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(value)}`);
};

describe('recognition inputs', () => {
  test('an upload id: trimmed text of 1 to 500 characters', () => {
    expect(parseInput(uploadIdInput, ' abc ')).toBe('abc');
    expect(parseInput(uploadIdInput, 'u'.repeat(500))).toHaveLength(500);
    expect(refusal(uploadIdInput, '  ')).toBe('Missing: the upload id');
    expect(refusal(uploadIdInput, 'u'.repeat(501))).toBe('The input must be at most 500 characters');
  });
});
