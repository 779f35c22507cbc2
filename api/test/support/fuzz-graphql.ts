import fc from 'fast-check';
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
} from 'graphql';
import { seedFor } from './fuzz-rest.js';
import { ODD_LEAVES, type Pass, unstorableText } from './fuzz-values.js';

export interface GraphQLCase {
  label: string;
  query: string;
  variables?: Record<string, unknown>;
}

const BAD_DATES = [
  '0000-00-00T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  'yesterday',
];

/**
 * A value for a scalar or enum of this name that the pass allows: wrong in every way, or right in type but odd. Given
 * real ids, every ID is one of them, so the other arguments reach past the lookup.
 */
function leafValue(typeName: string, enumValues: string[], pass: Pass, ids: string[]): fc.Arbitrary<unknown> {
  if (typeName === 'ID' && ids.length > 0) return fc.constantFrom(...ids);
  if (pass === 'unstorable') {
    const wrongShapes = fc.constantFrom<unknown>({}, [{}], { $gt: '' });
    switch (typeName) {
      case 'Int':
        return fc.oneof(fc.constantFrom<unknown>(2 ** 31, -(2 ** 31) - 1, 1.5, '1', 1e308), unstorableText, wrongShapes);
      case 'Float':
        return fc.oneof(fc.constantFrom<unknown>('NaN', '1', true, 1e308, -1e308), unstorableText, wrongShapes);
      case 'Boolean':
        return fc.oneof(fc.constantFrom<unknown>('true', 1, 0), unstorableText, wrongShapes);
      case 'DateTimeISO':
        return fc.oneof(fc.constantFrom<unknown>(...BAD_DATES, 1e308, -1), unstorableText, wrongShapes);
      default:
        if (enumValues.length > 0)
          return fc.oneof(fc.constantFrom<unknown>(...enumValues.map((value) => value.toLowerCase()), 'NOPE', 1), unstorableText);
        return fc.oneof(
          { weight: 4, arbitrary: unstorableText },
          { weight: 1, arbitrary: fc.constantFrom<unknown>(1e308, true) },
          wrongShapes,
        );
    }
  }
  switch (typeName) {
    case 'Int':
      return fc.constantFrom(-1, 0, 2 ** 31 - 1, -(2 ** 31));
    case 'Float':
      return fc.constantFrom(-1, -0, 1e308, 5e-324, 0.1);
    case 'Boolean':
      return fc.boolean();
    case 'DateTimeISO':
      return fc.constantFrom(
        '1970-01-01T00:00:00.000Z',
        '1999-12-31T23:59:59.999Z',
        '2199-12-31T23:59:59.999Z',
        '9999-12-31T23:59:59.999Z',
      );
    default:
      if (enumValues.length > 0) return fc.constantFrom(...enumValues);
      return fc.constantFrom(...ODD_LEAVES.filter((value): value is string => typeof value === 'string'));
  }
}

/** A value for an argument of this type: objects get every field, lists one or two items, nullable types never null. */
function valueFor(type: GraphQLInputType, pass: Pass, ids: string[], depth = 0): fc.Arbitrary<unknown> {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const item = valueFor(inner.ofType, pass, ids, depth + 1);
    return fc.oneof(fc.array(item, { minLength: 1, maxLength: 2 }), item);
  }
  if (isInputObjectType(inner)) {
    if (depth > 3) return fc.constant({});
    const fields = Object.values(inner.getFields());
    return fc.record(Object.fromEntries(fields.map((field) => [field.name, valueFor(field.type, pass, ids, depth + 1)])));
  }
  const named = getNamedType(inner);
  return leafValue(named.name, isEnumType(named) ? named.getValues().map((value) => value.name) : [], pass, ids);
}

/** A JSON value written as a GraphQL literal; enum arguments take their value bare when it is a name. */
function literal(value: unknown, asEnum: boolean): string {
  if (typeof value === 'string') return asEnum && /^[_A-Za-z][_0-9A-Za-z]*$/.test(value) ? value : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => literal(item, asEnum)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value).filter(([key]) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(key));
    return `{${fields.map(([key, item]) => `${key}: ${literal(item, false)}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const selectionFor = (field: GraphQLField<unknown, unknown>) => (isCompositeType(getNamedType(field.type)) ? ' { __typename }' : '');

export interface FieldCases {
  /** `query.feed`, `mutation.setLocation`, … */
  field: string;
  hasArguments: boolean;
  cases: GraphQLCase[];
}

/**
 * For each Query and Mutation field, operations whose every argument holds a hostile value of the pass, half through
 * variables declared with the argument's own type, half written inline. A field without arguments has nothing hostile
 * to carry, so it is only called in the odd pass.
 */
export function graphqlCases(schema: GraphQLSchema, pass: Pass, seed: number, perField: number, ids: string[] = []): FieldCases[] {
  const fields: FieldCases[] = [];
  const roots: [string, GraphQLObjectType | null | undefined][] = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ];
  for (const [operation, root] of roots) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const args: readonly GraphQLArgument[] = field.args;
      const name = `${operation}.${field.name}`;
      if (args.length === 0) {
        if (pass === 'odd')
          fields.push({
            field: name,
            hasArguments: false,
            cases: [{ label: field.name, query: `${operation} { ${field.name}${selectionFor(field)} }` }],
          });
        continue;
      }
      const values = fc.record(Object.fromEntries(args.map((arg) => [arg.name, valueFor(arg.type, pass, ids)])));
      const samples = fc.sample(values, { seed: seedFor(seed, `${name} ${pass}`), numRuns: perField });
      const cases = samples.map((sample, index): GraphQLCase => {
        if (index % 2 === 0) {
          const declarations = args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
          const passing = args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
          return {
            label: `via variables ${JSON.stringify(sample).slice(0, 300)}`,
            query: `${operation} Fuzz(${declarations}) { ${field.name}(${passing})${selectionFor(field)} }`,
            variables: sample,
          };
        }
        const inline = args.map((arg) => `${arg.name}: ${literal(sample[arg.name], isEnumType(getNamedType(arg.type)))}`).join(', ');
        return { label: `inline ${inline.slice(0, 300)}`, query: `${operation} { ${field.name}(${inline})${selectionFor(field)} }` };
      });
      fields.push({ field: name, hasArguments: true, cases });
    }
  }
  return fields;
}
