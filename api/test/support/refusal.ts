import type { z } from 'zod';
import { InvalidInputError } from '../../src/shared/errors.js';
import { parseInput } from '../../src/shared/inputs.js';

/** The message an input schema refuses a value with, through parseInput as the skins call it; accepting it fails the test. */
export function refusal(schema: z.ZodType, value: unknown): string {
  try {
    parseInput(schema, value);
  } catch (error) {
    if (error instanceof InvalidInputError) return error.message;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(value)}`);
}
