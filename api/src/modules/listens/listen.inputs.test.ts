import { describe, expect, test } from 'vitest';
import { listenMomentInput, mixIdInput } from './listen.inputs.js';

describe('listen inputs', () => {
  test("a listen's moment: absent, blank or null is now; otherwise a moment, named by its field", () => {
    const start = listenMomentInput('start');
    for (const now of ['', null, undefined]) expect(start.parse(now)).toBeUndefined();
    expect(start.parse('2026-11-24T10:00:00Z')).toEqual(new Date('2026-11-24T10:00:00Z'));
    expect(() => listenMomentInput('end').parse('soon')).toThrow('end must be a date');
    expect(mixIdInput.parse('x')).toBeNull();
  });
});
