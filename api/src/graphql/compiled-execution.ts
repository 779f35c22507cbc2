import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import { type DocumentNode, type ExecutionResult, execute, GraphQLError, type GraphQLSchema, printSchema } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { GraphQLContext } from './context.js';

type Gateway = ApolloServerOptionsWithGateway<GraphQLContext>['gateway'];

/**
 * How many compiled queries one process keeps. The web app and the public API send a few dozen distinct documents
 * (persisted queries); the bound keeps arbitrary clients' one-off documents from growing the map without end.
 */
export const COMPILED_QUERIES_KEPT = 500;

/**
 * Runs queries as compiled JavaScript (graphql-jit) instead of walking the document per request (graphql-js): a feed
 * page's 20 cards with their owners and tracks are some 600 field resolutions, and graphql-js pays a promise, a path
 * and an info object for each (docs/capacity.md#graphql-execution). Mutations run on graphql-js: they are few, each does
 * far more work than its execution, and their input coercion errors keep graphql-js's exact wording.
 * Subscriptions are not Apollo's (graphql-ws runs them). A document graphql-jit cannot compile runs on graphql-js.
 */
export class CompiledExecution {
  private readonly compiled = new Map<string, CompiledQuery | null>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly kept = COMPILED_QUERIES_KEPT,
  ) {}

  async run(
    document: DocumentNode,
    queryHash: string,
    operationName: string | null,
    context: GraphQLContext,
    variables: Record<string, unknown> | undefined,
  ) {
    const compiled = this.compiledFor(document, queryHash, operationName);
    if (compiled) {
      const result = await compiled.query(undefined, context, variables ?? {});
      if (!result.errors) return result;
      // No data at all: the variables were refused before any resolver ran. graphql-js words that refusal the way
      // Apollo recognises as the client's mistake (a 400 BAD_USER_INPUT naming the variable), and a query has no
      // effects to repeat.
      if (result.data === undefined) return this.runOnGraphQLJs(document, operationName, context, variables);
      return { ...result, errors: result.errors.map(asGraphQLJsError) };
    }
    return this.runOnGraphQLJs(document, operationName, context, variables);
  }

  private async runOnGraphQLJs(
    document: DocumentNode,
    operationName: string | null,
    context: GraphQLContext,
    variables: Record<string, unknown> | undefined,
  ) {
    return (await execute({
      schema: this.schema,
      document,
      contextValue: context,
      variableValues: variables,
      operationName,
    })) as ExecutionResult<Record<string, unknown>>;
  }

  /** The compiled query of a query operation (null: run it on graphql-js), compiled once per document and operation. */
  private compiledFor(document: DocumentNode, queryHash: string, operationName: string | null): CompiledQuery | null {
    const key = `${queryHash}:${operationName ?? ''}`;
    const known = this.compiled.get(key);
    if (known !== undefined) {
      // A hit moves to the end, so the first key is the least recently used one.
      this.compiled.delete(key);
      this.compiled.set(key, known);
      return known;
    }
    const compiled = isQueryOperation(document, operationName) ? compile(this.schema, document, operationName) : null;
    this.compiled.set(key, compiled);
    if (this.compiled.size > this.kept) {
      const oldest = this.compiled.keys().next().value;
      if (oldest !== undefined) this.compiled.delete(oldest);
    }
    return compiled;
  }

  /** Apollo Server's way to take over execution: its gateway interface with this schema and no federation. */
  gateway(): Gateway {
    const schema = this.schema;
    return {
      onSchemaLoadOrUpdate(callback) {
        callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
        return () => {};
      },
      load: async () => ({
        executor: (request) =>
          this.run(
            request.document,
            request.queryHash,
            // What the client asked for: the resolved operation's name is null when it names none that exists.
            request.request.operationName ?? null,
            request.context as GraphQLContext,
            request.request.variables,
          ),
      }),
      stop: async () => {},
    };
  }
}

function isQueryOperation(document: DocumentNode, operationName: string | null): boolean {
  const operations = document.definitions.filter((definition) => definition.kind === 'OperationDefinition');
  const operation = operationName ? operations.find((candidate) => candidate.name?.value === operationName) : operations[0];
  return operation?.operation === 'query';
}

function compile(schema: GraphQLSchema, document: DocumentNode, operationName: string | null): CompiledQuery | null {
  // Errors keep graphql-js's messages and paths; their stacks are never sent, so capturing them is wasted time.
  const result = compileQuery(schema, document, operationName ?? undefined, { disablingCapturingStackErrors: true });
  return isCompiledQuery(result) ? result : null;
}

/**
 * graphql-jit's errors are look-alikes of graphql-js's without `extensions`, which Apollo's error formatting reads (and
 * a domain error's code comes from): each becomes a graphql-js error with the same message, path, locations and cause.
 */
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  const original = error.originalError;
  const extensions = original && 'extensions' in original && isRecord(original.extensions) ? original.extensions : undefined;
  const converted = new GraphQLError(error.message, { path: error.path, originalError: original, extensions });
  if (error.locations) Object.defineProperty(converted, 'locations', { value: error.locations, enumerable: true });
  return converted;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
