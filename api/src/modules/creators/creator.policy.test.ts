import { describe, expect, test } from 'vitest';
import { ForbiddenError } from '../../shared/errors.js';
import { creatorPolicy } from './creator.policy.js';

describe('creator policy', () => {
  test("a name another member holds is a dispute; one nobody holds, or the claimant's own, a plain claim", () => {
    expect(creatorPolicy.queueKind('holder', 'claimant')).toBe('claim_dispute');
    expect(creatorPolicy.queueKind(null, 'claimant')).toBe('creator_claim');
    expect(creatorPolicy.queueKind('claimant', 'claimant')).toBe('creator_claim');
  });

  test('only a pending claim is decided', () => {
    expect(creatorPolicy.decidable('pending')).toBe(true);
    for (const status of ['approved', 'rejected', 'revoked'] as const) expect(creatorPolicy.decidable(status)).toBe(false);
  });

  test('a member reads their own claims only', () => {
    expect(() => creatorPolicy.assertOwnClaim('ana', 'ana')).not.toThrow();
    expect(() => creatorPolicy.assertOwnClaim('ana', 'ben')).toThrow(new ForbiddenError('This claim is not yours'));
  });

  test("a holder of one of the track's keys speaks for it", () => {
    expect(creatorPolicy.holdsTrack(['creator:kora'], ['label:night', 'creator:kora'])).toBe(true);
    expect(creatorPolicy.holdsTrack(['creator:kora'], ['creator:ama'])).toBe(false);
    expect(creatorPolicy.holdsTrack([], ['creator:ama'])).toBe(false);
    expect(creatorPolicy.holdsTrack(['creator:kora'], [])).toBe(false);
  });
});
