import { expect, test } from 'vitest';
import { libraryPolicy } from './library.policy.js';

test('a member reads their own library and nobody else’s', () => {
  expect(() => libraryPolicy.assertOwnLibrary({ id: 'a' }, 'a')).not.toThrow();
  expect(() => libraryPolicy.assertOwnLibrary({ id: 'a' }, 'b')).toThrow('Only you may see your library');
});
