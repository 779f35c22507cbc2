import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createPubSub } from '@graphql-yoga/subscription';
import { printSchema } from 'graphql';
import type { PubSub } from 'type-graphql';
import { buildGraphQLSchema } from './schema.js';

export const SCHEMA_FILE = fileURLToPath(new URL('../../../schema/schema.graphql', import.meta.url));

export async function printedSchema(): Promise<string> {
  return `${printSchema(await buildGraphQLSchema(createPubSub() as PubSub))}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(SCHEMA_FILE, await printedSchema());
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}
