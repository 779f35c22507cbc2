import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';
import { unstorableText, WIRE_NAMES } from './fuzz-values.js';

const SOURCE = join(import.meta.dirname, '../../src');

/** Every input module: each domain's `*.inputs.ts` and the shared one, found on disk so a new domain is covered. */
export async function inputModules(): Promise<{ file: string; exports: Record<string, unknown> }[]> {
  const files = ['shared/inputs.ts'];
  for (const domain of readdirSync(join(SOURCE, 'modules'))) {
    for (const file of readdirSync(join(SOURCE, 'modules', domain)))
      if (file.endsWith('.inputs.ts')) files.push(`modules/${domain}/${file}`);
  }
  return Promise.all(files.map(async (file) => ({ file, exports: (await import(join(SOURCE, file))) as Record<string, unknown> })));
}

/** The field names an object schema reads, looking through the pipes, defaults and optionals around it. */
export function keysOf(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  const definition: object = schema._zod.def;
  for (const inner of ['in', 'innerType', 'schema'] as const) {
    if (inner in definition) {
      const wrapped = (definition as Record<typeof inner, unknown>)[inner];
      if (wrapped instanceof z.ZodType) return keysOf(wrapped);
    }
  }
  return [];
}

const SOMETIMES_VALID = [
  '',
  ' ',
  'house',
  'all',
  'dj',
  'listener',
  'member_1',
  'Mixcrate1!',
  'member@example.com',
  '00000000-0000-4000-8000-000000000000',
  '2024-05-01T10:00:00Z',
  '2024-05-01T10:00:00.123456789+02:00',
  '1714557600000',
  'https://example.com/cover.jpg',
  Buffer.from(JSON.stringify(['2024-13-45T99:99:99.000000Z', '00000000-0000-4000-8000-000000000000'])).toString('base64url'),
  Buffer.from(JSON.stringify(['19'])).toString('base64url'),
];

const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: unstorableText },
  { weight: 3, arbitrary: fc.constantFrom(...SOMETIMES_VALID) },
  { weight: 1, arbitrary: fc.constantFrom(...SOMETIMES_VALID).map((valid) => `${valid}\u0000`) },
);

const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 1, 5, 20, 50, 100_000, 100_001, 2 ** 53, 5e-324, -5e-324, 1e308, Number.NaN, Number.POSITIVE_INFINITY),
);

const leaf = fc.oneof(text, number, fc.boolean(), fc.constantFrom(null, undefined), fc.date({ noInvalidDate: false }));

function treeOf(names: string[]): fc.Arbitrary<unknown> {
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth: 3 },
      { weight: 5, arbitrary: leaf },
      { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 35 }) },
      { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...names), tie('value'), { maxKeys: 4 }) },
    ),
  })).value;
}

/** An object with any of these fields, each holding anything: what a skin builds from a request's wire names. */
export const fieldsOf = (keys: string[]) => {
  const tree = treeOf([...new Set([...keys, ...WIRE_NAMES])]);
  return fc.record(Object.fromEntries(keys.map((key) => [key, tree])), { requiredKeys: [] });
};

/** Anything a skin could hand a service: JSON-like trees of hostile and plausible leaves, and JavaScript oddities. */
export function inputFor(schema: z.ZodType): fc.Arbitrary<unknown> {
  const keys = keysOf(schema);
  return fc.oneof(
    { weight: 4, arbitrary: keys.length > 0 ? fieldsOf(keys) : treeOf(WIRE_NAMES) },
    { weight: 2, arbitrary: treeOf([...keys, ...WIRE_NAMES]) },
    {
      weight: 1,
      arbitrary: fc.anything({
        withBigInt: true,
        withDate: true,
        withMap: true,
        withNullPrototype: true,
        withBoxedValues: true,
        withTypedArray: true,
        withSparseArray: true,
      }),
    },
  );
}

// Checked here without the code under test: UTF-8 cannot carry an unpaired surrogate, so such text does not survive the trip.
const storableText = (value: string) => !value.includes('\u0000') && Buffer.from(value, 'utf8').toString('utf8') === value;

/** Where in a parsed value a text sits that PostgreSQL could not store, if anywhere. */
export function unstorableTextIn(value: unknown, path = '$'): string | null {
  if (typeof value === 'string') return storableText(value) ? null : path;
  if (value === null || typeof value !== 'object' || value instanceof Date || Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = unstorableTextIn(item, `${path}.${key}`);
    if (found) return found;
  }
  return null;
}
