import { parseCircular, parseDependencyTree } from 'dpdm';
import { expect, test } from 'vitest';

/**
 * Imports go skins → services → database without cycles. The one pair allowed is two entities whose tables reference
 * each other (a member's current mix, a mix's owner): MikroORM resolves them lazily through `() =>` thunks.
 */
const ALLOWED = [['src/modules/users/user.entity.ts', 'src/modules/mixes/mix.entity.ts']];

test('the API has no import cycles (type-only imports aside)', async () => {
  const tree = await parseDependencyTree('src/**/*.ts', { context: process.cwd(), transform: true, exclude: /node_modules|\.test\.ts$/ });
  const cycles = parseCircular(tree).filter(
    (cycle) => !ALLOWED.some((pair) => cycle.length === pair.length && pair.every((file) => cycle.includes(file))),
  );
  expect(cycles).toEqual([]);
});
