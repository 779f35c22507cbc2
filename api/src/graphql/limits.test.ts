import { GraphQLID, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, Kind, parse } from 'graphql';
import { expect, test } from 'vitest';
import { costOfOperation, LOOKUP_COST } from './limits.js';

const Item = new GraphQLObjectType({ name: 'Item', fields: { a: { type: GraphQLString }, b: { type: GraphQLString } } });
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      declared: { type: new GraphQLList(Item), extensions: { listSize: 100 } },
      undeclared: { type: new GraphQLList(Item) },
      page: { type: new GraphQLList(Item), args: { first: { type: GraphQLInt }, genre: { type: GraphQLString } } },
      byIds: { type: new GraphQLList(Item), args: { ids: { type: new GraphQLList(new GraphQLNonNull(GraphQLID)) } } },
    },
  }),
});

const operationOf = (query: string) => {
  const document = parse(query);
  const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  if (operation?.kind !== Kind.OPERATION_DEFINITION) throw new Error('no operation');
  return { document, operation };
};
const cost = (query: string) => {
  const { document, operation } = operationOf(query);
  return costOfOperation(schema, document, operation, undefined);
};

test('a list with a declared size (ListSize) weighs what it selects that many times; an undeclared one once', () => {
  expect(cost('{ declared { a b } }')).toBe(LOOKUP_COST + 100 * 2);
  expect(cost('{ undeclared { a b } }')).toBe(LOOKUP_COST + 2);
});

test('an operation sent again costs what its size, list and directive variables say, whatever its other variables', () => {
  const { document, operation } = operationOf(`query Page($first: Int, $genre: String, $ids: [ID!], $withB: Boolean!) {
    page(first: $first, genre: $genre) { a b @include(if: $withB) }
    ...More
  }
  fragment More on Query { byIds(ids: $ids) { a } }`);
  const costOf = (variables: Record<string, unknown>) => costOfOperation(schema, document, operation, variables);
  const base = { first: 10, genre: 'house', ids: ['1', '2'], withB: true };
  const first = costOf(base);
  expect(first).toBe(LOOKUP_COST + 10 * 2 + 2 * (LOOKUP_COST + 1));
  expect(costOf({ ...base, genre: 'techno' })).toBe(first);
  expect(costOf({ ...base, first: 20 })).toBe(LOOKUP_COST + 20 * 2 + 2 * (LOOKUP_COST + 1));
  expect(costOf({ ...base, ids: ['1', '2', '3'] })).toBe(LOOKUP_COST + 10 * 2 + 3 * (LOOKUP_COST + 1));
  expect(costOf({ ...base, withB: false })).toBe(LOOKUP_COST + 10 + 2 * (LOOKUP_COST + 1));
  expect(costOf(base)).toBe(first);
});

test('each page size costs its own, and a size left out costs one page of one', () => {
  const { document, operation } = operationOf('query Page($first: Int) { page(first: $first) { a } }');
  expect(costOfOperation(schema, document, operation, { first: 3 })).toBe(LOOKUP_COST + 3);
  expect(costOfOperation(schema, document, operation, {})).toBe(LOOKUP_COST + 1);
  expect(costOfOperation(schema, document, operation, { first: 5 })).toBe(LOOKUP_COST + 5);
});
