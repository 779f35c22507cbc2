import { describe, expect, test } from 'vitest';
import { parseInput } from '../../shared/inputs.js';
import { FOR_YOU_DEFAULT, FOR_YOU_MAX, forYouInput } from './recommendation.inputs.js';

describe('recommendation inputs', () => {
  test('the For you row: 12 by default, 1 to 50', () => {
    expect([FOR_YOU_DEFAULT, FOR_YOU_MAX]).toEqual([12, 50]);
    expect(parseInput(forYouInput, {})).toEqual({ first: 12 });
    expect(parseInput(forYouInput, { first: 50 })).toEqual({ first: 50 });
    expect(() => parseInput(forYouInput, { first: 51 })).toThrow('first must be a whole number from 1 to 50');
  });
});
