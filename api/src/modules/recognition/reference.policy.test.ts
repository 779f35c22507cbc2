import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../shared/errors.js';
import { referencePolicy } from './reference.policy.js';

const ME = 'me';
const catalogue = { isManual: false, namesViewer: false, tracklistOwners: [] as string[] };

describe('who may add a track’s reference audio', () => {
  it('lets the members a track names as creator or label', () => {
    expect(() => referencePolicy.assertMayAddReference({ ...catalogue, namesViewer: true }, ME)).not.toThrow();
  });

  it('refuses anyone else, even a DJ whose tracklists play the catalogue track', () => {
    expect(() => referencePolicy.assertMayAddReference({ ...catalogue, tracklistOwners: [ME] }, ME)).toThrow(ForbiddenError);
    expect(() => referencePolicy.assertMayAddReference(catalogue, ME)).toThrow(ForbiddenError);
  });

  it('lets the member who typed a manual track, when no one else’s tracklist holds it', () => {
    const manual = { ...catalogue, isManual: true };
    expect(referencePolicy.owns({ ...manual, tracklistOwners: [ME] }, ME)).toBe(true);
    expect(referencePolicy.owns({ ...manual, tracklistOwners: ['other'] }, ME)).toBe(false);
    expect(referencePolicy.owns({ ...manual, tracklistOwners: [ME, 'other'] }, ME)).toBe(false);
    expect(referencePolicy.owns({ ...manual, tracklistOwners: [] }, ME)).toBe(false);
  });

  it('answers not found for a track that does not exist', () => {
    expect(() => referencePolicy.assertMayAddReference(null, ME)).toThrow(NotFoundError);
  });
});
