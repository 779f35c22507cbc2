import { readFile } from 'node:fs/promises';
import { createPubSub } from '@graphql-yoga/subscription';
import { isAbstractType } from 'graphql';
import type { PubSub } from 'type-graphql';
import { expect, test } from 'vitest';
import { printedSchema, SCHEMA_FILE } from '../src/graphql/emit-schema.js';
import { buildGraphQLSchema } from '../src/graphql/schema.js';

test('the committed schema/schema.graphql is what the code emits (run `npm run schema -w api` after changing the API)', async () => {
  expect(await readFile(SCHEMA_FILE, 'utf8')).toBe(await printedSchema());
});

test('every union and interface resolves its type synchronously: compiled execution does not wait for a type', async () => {
  const schema = await buildGraphQLSchema(createPubSub() as PubSub);
  const waiting = Object.values(schema.getTypeMap())
    .filter((type) => isAbstractType(type) && type.resolveType?.constructor.name === 'AsyncFunction')
    .map((type) => type.name);
  expect(waiting).toEqual([]);
});
