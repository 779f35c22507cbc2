import { expect, test } from 'vitest';
import { libraryPolicy } from './library.policy.js';

test('a member reads their own library and nobody else’s', () => {
  const viewer = { id: 'a', sessionId: 's' };
  expect(() => libraryPolicy.assertOwnLibrary(viewer, 'a')).not.toThrow();
  expect(() => libraryPolicy.assertOwnLibrary(viewer, 'b')).toThrow('Only you may see your library');
});
