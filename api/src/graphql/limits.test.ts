import { GraphQLList, GraphQLObjectType, GraphQLSchema, GraphQLString, Kind, parse } from 'graphql';
import { expect, test } from 'vitest';
import { costOfOperation, LOOKUP_COST } from './limits.js';

const Item = new GraphQLObjectType({ name: 'Item', fields: { a: { type: GraphQLString }, b: { type: GraphQLString } } });
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      declared: { type: new GraphQLList(Item), extensions: { listSize: 100 } },
      undeclared: { type: new GraphQLList(Item) },
    },
  }),
});

const cost = (query: string) => {
  const document = parse(query);
  const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  if (operation?.kind !== Kind.OPERATION_DEFINITION) throw new Error('no operation');
  return costOfOperation(schema, document, operation, undefined);
};

test('a list with a declared size (ListSize) weighs what it selects that many times; an undeclared one once', () => {
  expect(cost('{ declared { a b } }')).toBe(LOOKUP_COST + 100 * 2);
  expect(cost('{ undeclared { a b } }')).toBe(LOOKUP_COST + 2);
});
