import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { printedSchema, SCHEMA_FILE } from '../src/graphql/emit-schema.js';

test('the committed schema/schema.graphql is what the code emits (run `npm run schema -w api` after changing the API)', async () => {
  expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(await printedSchema());
});
