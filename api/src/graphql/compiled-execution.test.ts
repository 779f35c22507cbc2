import {
  execute,
  GraphQLError,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  parse,
} from 'graphql';
import { describe, expect, test } from 'vitest';
import { CompiledExecution } from './compiled-execution.js';
import type { GraphQLContext } from './context.js';

const Item = new GraphQLObjectType({
  name: 'Item',
  fields: {
    id: { type: new GraphQLNonNull(GraphQLString) },
    title: { type: GraphQLString, resolve: async (item: { id: string }) => `Title ${item.id}` },
    refused: {
      type: GraphQLString,
      resolve: () => {
        throw new GraphQLError('Not yours.', { extensions: { code: 'FORBIDDEN', status: 403 } });
      },
    },
  },
});

let bumps = 0;
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      items: {
        type: new GraphQLList(Item),
        args: { first: { type: new GraphQLNonNull(GraphQLInt) } },
        resolve: (_root, args: { first: number }) => Array.from({ length: args.first }, (_, index) => ({ id: String(index + 1) })),
      },
    },
  }),
  mutation: new GraphQLObjectType({
    name: 'Mutation',
    fields: { bump: { type: GraphQLInt, resolve: () => ++bumps } },
  }),
});
const context = {} as GraphQLContext;

async function both(query: string, variables?: Record<string, unknown>, operationName: string | null = null) {
  const document = parse(query);
  const compiled = await new CompiledExecution(schema).run(document, query, operationName, context, variables);
  const interpreted = await execute({ schema, document, variableValues: variables, contextValue: context, operationName });
  return { compiled, interpreted };
}

describe('compiled execution', () => {
  test('answers what graphql-js answers: aliases, fragments, variables, promises', async () => {
    const { compiled, interpreted } = await both(
      'query Items($n: Int!) { first: items(first: $n) { ...Parts } two: items(first: 2) { id } } fragment Parts on Item { id title }',
      { n: 3 },
      'Items',
    );
    expect(compiled).toEqual({
      data: {
        first: [
          { id: '1', title: 'Title 1' },
          { id: '2', title: 'Title 2' },
          { id: '3', title: 'Title 3' },
        ],
        two: [{ id: '1' }, { id: '2' }],
      },
    });
    expect(compiled).toEqual(JSON.parse(JSON.stringify(interpreted)));
  });

  test("a resolver's error keeps its message, path, locations and extensions, as a graphql-js error", async () => {
    const { compiled, interpreted } = await both('{ items(first: 1) { id refused } }');
    const [error] = compiled.errors ?? [];
    expect(error).toBeInstanceOf(GraphQLError);
    expect(error.extensions).toEqual({ code: 'FORBIDDEN', status: 403 });
    expect(error.toJSON()).toEqual(interpreted.errors?.[0].toJSON());
    expect(compiled.data).toEqual({ items: [{ id: '1', refused: null }] });
  });

  test('refused variables come back as graphql-js words them, pointing at the variable (what Apollo makes a 400)', async () => {
    const { compiled, interpreted } = await both('query ($n: Int!) { items(first: $n) { id } }', { n: 'many' });
    expect(compiled.data).toBeUndefined();
    expect(compiled.errors?.map((error) => error.message)).toEqual(interpreted.errors?.map((error) => error.message));
    expect(compiled.errors?.[0].nodes?.[0].kind).toBe(Kind.VARIABLE_DEFINITION);
  });

  test('an unknown operation name is refused, not run as the only operation', async () => {
    const { compiled } = await both('query Mine { items(first: 1) { id } }', undefined, 'Theirs');
    expect(compiled.errors?.[0].message).toBe('Unknown operation named "Theirs".');
    expect(compiled.data).toBeUndefined();
  });

  test('mutations run once each, in order, on graphql-js', async () => {
    bumps = 0;
    const execution = new CompiledExecution(schema);
    const document = parse('mutation { a: bump b: bump }');
    expect(await execution.run(document, 'm', null, context, undefined)).toEqual({ data: { a: 1, b: 2 } });
    expect(bumps).toBe(2);
  });

  test('past the number of documents it keeps, older compiled queries are dropped and compiled again when asked', async () => {
    const execution = new CompiledExecution(schema, 2);
    for (const first of [1, 2, 3, 1]) {
      const query = `{ items(first: ${first}) { id } }`;
      const answer = await execution.run(parse(query), query, null, context, undefined);
      expect(answer.data?.items).toHaveLength(first);
    }
  });

  test("Apollo's gateway interface: the schema is announced at once and the executor runs the request", async () => {
    const gateway = new CompiledExecution(schema).gateway();
    const announced: GraphQLSchema[] = [];
    gateway.onSchemaLoadOrUpdate(({ apiSchema }) => announced.push(apiSchema));
    expect(announced).toEqual([schema]);
    const { executor } = await gateway.load({ apollo: {} });
    const query = '{ items(first: 1) { id } }';
    const request = { document: parse(query), queryHash: query, operationName: null, context, request: { query } };
    expect(await executor?.(request as unknown as Parameters<NonNullable<typeof executor>>[0])).toEqual({ data: { items: [{ id: '1' }] } });
  });
});
