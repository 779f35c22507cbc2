import { expect, test } from 'vitest';
import { listenPolicy } from './listen.policy.js';

test('only the mix’s owner sees its listen records', () => {
  expect(() => listenPolicy.assertCanSeeRecords('owner', 'owner')).not.toThrow();
  expect(() => listenPolicy.assertCanSeeRecords('owner', 'someone')).toThrow('Only the owner of a mix can see its listeners');
});
