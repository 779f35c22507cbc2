import type { ApolloServerPlugin, GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import {
  type DocumentNode,
  type ExecutionArgs,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLField,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  isListType,
  isNonNullType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  specifiedRules,
  type ValueNode,
  validate,
} from 'graphql';
import { getComplexity } from 'graphql-query-complexity';
import { Extensions } from 'type-graphql';
import { CURSOR_PAGE_DEFAULT_SIZE } from '../shared/inputs.js';
import type { GraphQLContext } from './context.js';

/** What one mutation field weighs in the cost limit: each writes in its own transaction, where a read field costs 1. */
export const MUTATION_COST = 50;
/**
 * What a field that goes to the database itself weighs, per call: every root field of a query or subscription, and the
 * fields marked `@Lookup()` (read once per parent, not batched). A lookup sends a few statements (at most
 * `STATEMENTS_PER_LOOKUP`), so the cost limit bounds the statements an operation can make.
 */
export const LOOKUP_COST = 20;
/** The most statements one lookup sends (the test of every root field at its largest holds the code to it). */
export const STATEMENTS_PER_LOOKUP = 5;

/**
 * Marks a field resolver that reads the database once per parent object (a page of twenty parents reads twenty
 * times), so the cost limit weighs it as a lookup rather than as a field its parent already holds.
 */
export const Lookup = () => Extensions({ lookup: true });
/**
 * Marks a list field without a size argument with the most items it answers, so what it selects is weighed that many
 * times (a connection's `first` does the same for paged fields).
 */
export const ListSize = (most: number) => Extensions({ listSize: most });
/** The most root mutation fields one operation may hold, aliases and fragments included. */
export const MAX_MUTATIONS_PER_OPERATION = 10;
/**
 * The most selections an operation may reach through its fragments. Ten fragments each spreading the next ten times
 * are a short document that reaches ten billion; a real page reaches a few hundred.
 */
export const MAX_SELECTIONS = 5_000;

export interface OperationLimits {
  maxDepth: number;
  maxCost: number;
}

/** A document's fragments by name. */
function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

const refuse = (message: string, code: string) => new GraphQLError(message, { extensions: { code, http: { status: 400 } } });

/**
 * Depth, size, mutation count and cost of one operation of a document that already passed validation (so its
 * fragments exist and never spread themselves), with variables that already coerce; the first limit it breaks, if any.
 */
export function limitProblem(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
  limits: OperationLimits,
): GraphQLError | null {
  const fragments = fragmentsOf(document);
  const shape = measureShape(operation.selectionSet, fragments);
  const name = operation.name?.value ?? '';
  if (shape.selections > MAX_SELECTIONS) {
    return refuse(
      `This operation reaches ${shape.selections.toLocaleString('en')} selections through its fragments, more than the limit of ${MAX_SELECTIONS.toLocaleString('en')}.`,
      'QUERY_TOO_COMPLEX',
    );
  }
  // Graded like graphql-depth-limit always did: root fields are at depth 0, introspection fields do not count.
  if (shape.height - 1 > limits.maxDepth) {
    return refuse(`'${name}' exceeds maximum operation depth of ${limits.maxDepth}`, 'GRAPHQL_VALIDATION_FAILED');
  }
  if (operation.operation === 'mutation') {
    const mutations = countRootFields(operation.selectionSet, fragments);
    if (mutations > MAX_MUTATIONS_PER_OPERATION) {
      return refuse(
        `This request holds ${mutations} mutations; send at most ${MAX_MUTATIONS_PER_OPERATION} mutations per request.`,
        'QUERY_TOO_COMPLEX',
      );
    }
  }
  let cost: number;
  try {
    cost = costOfOperation(schema, document, operation, variables);
  } catch (error) {
    // Its one refusal left once variables coerce: more nodes than it walks (abstract types are walked once per type).
    if (error instanceof GraphQLError) return refuse(error.message, 'QUERY_TOO_COMPLEX');
    throw error;
  }
  if (cost > limits.maxCost) {
    return refuse(
      `This query costs ${cost}, more than the limit of ${limits.maxCost}. Ask for fewer fields or smaller pages.`,
      'QUERY_TOO_COMPLEX',
    );
  }
  return null;
}

const singleOperation = (operation: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>): DocumentNode => ({
  kind: Kind.DOCUMENT,
  definitions: [operation, ...fragments.values()],
});

/** Names of the size arguments the cost reads (see operationCost). */
const SIZE_ARGUMENTS = new Set(['first', 'last', 'limit']);

/**
 * The variables whose values can change an operation's cost: those given as a page size (`first`, `last`, `limit`),
 * those of list type (their items count one by one) and those a directive reads (`@skip`, `@include`). Any other
 * variable (a genre, a point, a search text) leaves the cost as it is, so operations that differ only there share one.
 */
function costVariables(operation: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>): string[] {
  const names = new Set<string>();
  for (const definition of operation.variableDefinitions ?? []) {
    const type = definition.type.kind === Kind.NON_NULL_TYPE ? definition.type.type : definition.type;
    if (type.kind === Kind.LIST_TYPE) names.add(definition.variable.name.value);
  }
  const visited = new Set<string>();
  const variablesIn = (node: ValueNode) => {
    if (node.kind === Kind.VARIABLE) names.add(node.name.value);
    else if (node.kind === Kind.LIST) node.values.forEach(variablesIn);
    else if (node.kind === Kind.OBJECT) for (const field of node.fields) variablesIn(field.value);
  };
  const walk = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      for (const directive of selection.directives ?? []) for (const argument of directive.arguments ?? []) variablesIn(argument.value);
      if (selection.kind === Kind.FIELD) {
        for (const argument of selection.arguments ?? []) {
          if (SIZE_ARGUMENTS.has(argument.name.value) && argument.value.kind === Kind.VARIABLE) names.add(argument.value.name.value);
        }
        if (selection.selectionSet) walk(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!visited.has(selection.name.value)) {
        visited.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return [...names].sort();
}

/** The costs an operation was found to have, by the values of its cost variables; a few per operation. */
interface KnownCosts {
  variables: string[];
  costs: Map<string, number>;
}
/** Distinct cost-variable values remembered per operation: a client pages with a handful of sizes. */
const COSTS_PER_OPERATION = 32;
/**
 * Costs already computed, per operation node: a document Apollo has cached is the same node on every request that
 * sends it, and walking it with the schema (graphql-query-complexity) was the largest part of a feed page's API time.
 */
const knownCosts = new WeakMap<OperationDefinitionNode, KnownCosts>();

/** The cost of one operation of a document (the cost limit checks it; the rate limit spends it, see http/public-api). */
export function costOfOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | undefined,
): number {
  let known = knownCosts.get(operation);
  if (!known) {
    known = { variables: costVariables(operation, fragmentsOf(document)), costs: new Map() };
    knownCosts.set(operation, known);
  }
  const key = JSON.stringify(known.variables.map((name) => variables?.[name] ?? null));
  const cost = known.costs.get(key);
  if (cost !== undefined) return cost;
  const computed = operationCost(schema, singleOperation(operation, fragmentsOf(document)), variables);
  if (known.costs.size >= COSTS_PER_OPERATION) known.costs.clear();
  known.costs.set(key, computed);
  return computed;
}

/**
 * One per field, a lookup `LOOKUP_COST`, a mutation `MUTATION_COST`; what a field selects is multiplied by its page size
 * (`first`, `last` or `limit`; a connection asked for neither, by its default size). The items of list arguments count
 * one by one: a read given n ids or rows costs what n reads of one would, and a mutation given n entries writes them in
 * its one transaction, one point each, and answers for each.
 */
function operationCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> | undefined): number {
  const mutationType = schema.getMutationType();
  const readRoots = [schema.getQueryType(), schema.getSubscriptionType()];
  return getComplexity({
    schema,
    query: document,
    variables,
    maxQueryNodes: MAX_SELECTIONS + 1,
    estimators: [
      ({ type, field, args, childComplexity }) => {
        const pageSize = Math.max(
          1,
          [args.first, args.last, args.limit].find((size) => typeof size === 'number') ?? defaultPageSize(field),
        );
        const items = listItems(field, args);
        const calls = Math.max(1, items);
        if (mutationType && type === mutationType) return MUTATION_COST + items + calls * pageSize * childComplexity;
        const isLookup = (readRoots.some((root) => root === type) && !field.name.startsWith('__')) || field.extensions.lookup === true;
        return calls * ((isLookup ? LOOKUP_COST : 1) + pageSize * childComplexity);
      },
    ],
  });
}

/** How many items the list arguments of a field hold, all together (`nodes(ids:)`, `lookupTracks(tracks:)`). */
function listItems(field: GraphQLField<unknown, unknown>, args: Record<string, unknown>): number {
  let items = 0;
  for (const argument of field.args) {
    const type = isNonNullType(argument.type) ? argument.type.ofType : argument.type;
    const value = args[argument.name];
    if (isListType(type) && Array.isArray(value)) items += value.length;
  }
  return items;
}

/** What a field's page holds when no size is given: its declared `ListSize`, a connection's default, one for anything else. */
const defaultPageSize = (field: GraphQLField<unknown, unknown>): number => {
  const { listSize } = field.extensions;
  if (typeof listSize === 'number') return listSize;
  return field.args.some((argument) => argument.name === 'last') ? CURSOR_PAGE_DEFAULT_SIZE : 1;
};

interface Shape {
  /** Nested levels of fields below and including this selection set's. */
  height: number;
  selections: number;
}

/** One walk, each fragment measured once, so a document cannot make it do more work than its own length. */
function measureShape(root: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): Shape {
  const measured = new Map<string, Shape>();
  const measure = (selectionSet: SelectionSetNode): Shape => {
    let height = 0;
    let selections = 0;
    for (const selection of selectionSet.selections) {
      let inner: Shape;
      if (selection.kind === Kind.FIELD) {
        inner = selection.selectionSet ? measure(selection.selectionSet) : { height: 0, selections: 0 };
        const isIntrospection = selection.name.value.startsWith('__');
        height = Math.max(height, 1 + (isIntrospection ? 0 : inner.height));
      } else {
        inner = selection.kind === Kind.INLINE_FRAGMENT ? measure(selection.selectionSet) : fragmentShape(selection.name.value);
        height = Math.max(height, inner.height);
      }
      selections += 1 + inner.selections;
    }
    return { height, selections };
  };
  const fragmentShape = (name: string): Shape => {
    const known = measured.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    const shape = fragment ? measure(fragment.selectionSet) : { height: 0, selections: 0 };
    measured.set(name, shape);
    return shape;
  };
  return measure(root);
}

function countRootFields(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): number {
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) count += 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT) count += countRootFields(selection.selectionSet, fragments);
    else {
      const fragment = fragments.get(selection.name.value);
      if (fragment) count += countRootFields(fragment.selectionSet, fragments);
    }
  }
  return count;
}

/** What an operation within the limits spends before it runs (the rate limits' budget); it refuses it by throwing. */
export type SpendOperationCost = (request: GraphQLRequestContextDidResolveOperation<GraphQLContext>, cost: number) => Promise<void>;

/**
 * The limits over HTTP, once Apollo has parsed and validated the document and looked for the operation. A subscription
 * is refused (HTTP cannot carry its stream). No operation found, or variables that do not coerce, are left to the
 * executor: it answers OPERATION_RESOLUTION_FAILURE or BAD_USER_INPUT before any resolver runs, and cost analysis
 * needs both. An operation within the limits then spends its cost (`spend`); one they refuse spends nothing, since
 * nothing runs (Apollo runs every plugin's hook at once, so the spending cannot be a plugin of its own).
 */
export function operationLimitsPlugin(
  schema: GraphQLSchema,
  limits: OperationLimits,
  spend: SpendOperationCost,
): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(context) {
          const { request, document, operation } = context;
          if (!operation) return;
          if (operation.operation === 'subscription') {
            throw refuse(
              'Subscriptions go over the WebSocket at /graphql with the graphql-ws protocol, not over an HTTP request.',
              'BAD_REQUEST',
            );
          }
          if ('errors' in getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {})) return;
          const problem = limitProblem(schema, document, operation, request.variables, limits);
          if (problem) throw problem;
          await spend(context, costOfOperation(schema, document, operation, request.variables));
        },
      };
    },
  };
}

const withCode = (error: GraphQLError, code: string) =>
  new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: { code } });

/**
 * What Apollo does over HTTP before it executes, for an operation that came over graphql-ws: parse, validate, pick the
 * operation, coerce its variables, apply the limits. Each failure is an error on that operation, coded as over HTTP;
 * nothing here throws, so a hostile operation never closes the socket.
 */
export function prepareWebSocketOperation(
  schema: GraphQLSchema,
  payload: { query: string; operationName?: string | null; variables?: Record<string, unknown> | null },
  limits: OperationLimits,
): ExecutionArgs | readonly GraphQLError[] {
  let document: DocumentNode;
  try {
    document = parse(payload.query);
  } catch (error) {
    if (error instanceof GraphQLError) return [withCode(error, 'GRAPHQL_PARSE_FAILED')];
    throw error;
  }
  const problems = validate(schema, document, specifiedRules);
  if (problems.length > 0) return problems.map((problem) => withCode(problem, 'GRAPHQL_VALIDATION_FAILED'));
  const operation = getOperationAST(document, payload.operationName);
  if (!operation) {
    const message = payload.operationName
      ? `Unknown operation named "${payload.operationName}".`
      : 'Send exactly one operation or name one.';
    return [new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } })];
  }
  const variables = payload.variables ?? {};
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) return coerced.errors.map((error) => withCode(error, 'BAD_USER_INPUT'));
  const problem = limitProblem(schema, document, operation, variables, limits);
  if (problem) return [problem];
  return { schema, document, operationName: payload.operationName, variableValues: variables };
}
