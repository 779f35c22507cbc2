import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../shared/errors.js';
import { referencePolicy } from './reference.policy.js';

describe('who may add or remove a track’s reference audio', () => {
  it('lets a verified creator or label of the track, and moderators and operators', () => {
    expect(() => referencePolicy.assertMayChange({ holdsTrack: true, role: 'member' })).not.toThrow();
    expect(() => referencePolicy.assertMayChange({ holdsTrack: false, role: 'moderator' })).not.toThrow();
    expect(() => referencePolicy.assertMayChange({ holdsTrack: false, role: 'operator' })).not.toThrow();
  });

  it('refuses anyone else: DJs who play the track and members who typed a manual one hold nothing', () => {
    expect(() => referencePolicy.assertMayChange({ holdsTrack: false, role: 'member' })).toThrow(ForbiddenError);
  });

  it('answers not found for a track that does not exist', () => {
    expect(() => referencePolicy.assertMayChange(null)).toThrow(NotFoundError);
  });
});

describe('a reference that matches another track', () => {
  it('counts as the same audio from a fifth of its fingerprints, and never from a handful', () => {
    expect(referencePolicy.isDuplicate(200, 1000)).toBe(true);
    expect(referencePolicy.isDuplicate(199, 1000)).toBe(false);
    expect(referencePolicy.isDuplicate(49, 100)).toBe(false);
    // The least hits exactly: a duplicate when they are also a fifth of the fingerprints.
    expect(referencePolicy.isDuplicate(50, 100)).toBe(true);
  });

  it('waits for a moderator unless the uploader holds the matched track too', () => {
    expect(referencePolicy.needsReview(null)).toBe(false);
    expect(referencePolicy.needsReview({ trackId: 't', heldByViewer: true })).toBe(false);
    expect(referencePolicy.needsReview({ trackId: 't', heldByViewer: false })).toBe(true);
  });
});
