import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPubSub } from '@graphql-yoga/subscription';
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isEnumType,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  Kind,
  parse,
  typeFromAST,
} from 'graphql';
import type { PubSub } from 'type-graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { costOfOperation, LOOKUP_COST, MAX_SELECTIONS, STATEMENTS_PER_LOOKUP } from '../src/graphql/limits.js';
import { buildGraphQLSchema } from '../src/graphql/schema.js';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { TRACKLIST_MAX } from '../src/shared/domain.js';
import { createTestApp, type GraphQLResult, gql, type Member, signUpMember, type TestApp } from './support/app.js';
import {
  type ArgumentValues,
  type BuiltOperation,
  OperationBuilder,
  SIZE_LADDER,
  type SizeCoordinate,
} from './support/maximal-operations.js';
import { CITIES, draftMix } from './support/mixes.js';
import { statementsOf } from './support/statements.js';

/**
 * Issue 26, "cost that matches work": the cost limit bounds what an operation makes the database do. List arguments
 * weigh per item, fields that read the database themselves weigh a lookup, and every query field, asked at its largest
 * and repeated up to the limit, sends no more statements than its cost pays for.
 */

const MAX_COST = 2000;
/** Statements a request sends whatever it asks (the rate limit's count, the viewer's sign-in). */
const PER_REQUEST = 5;
/** What an operation of this cost may send: the lookups it paid for, each at most STATEMENTS_PER_LOOKUP statements. */
const statementsPaidFor = (cost: number) => PER_REQUEST + Math.floor(cost / LOOKUP_COST) * STATEMENTS_PER_LOOKUP;

let t: TestApp;
let schema: GraphQLSchema;
let dj: Member;
const members: Member[] = [];
const mixIds: string[] = [];
const drafts: string[] = [];
const trackIds: string[] = [];
const catalogue: { artist: string; title: string }[] = [];

const WORDS = ['night', 'bloom', 'sunrise', 'basement', 'dub', 'echo', 'river', 'static', 'velvet', 'orbit'];
const MIXES = 25;

beforeAll(async () => {
  t = await createTestApp({ GRAPHQL_MAX_COST: String(MAX_COST), RATE_LIMIT_GRAPHQL_COST: '100000000', RATE_LIMIT_REQUESTS: '1000000' });
  schema = await buildGraphQLSchema(createPubSub() as PubSub);
  dj = await signUpMember(t.app, { ...CITIES.berlin, userType: 'dj' });
  for (let index = 0; index < 4; index++) members.push(await signUpMember(t.app, CITIES.london));
  const tracks = Array.from({ length: 60 }, (_, index) => ({
    source: 'work',
    externalId: `w${index}`,
    title: `${WORDS[index % WORDS.length]} ${WORDS[(index * 3 + 1) % WORDS.length]} ${index}`,
    creators: [{ id: null, name: `Artist ${WORDS[(index * 7) % WORDS.length]} ${index % 13}` }],
    label: { id: null, name: 'Work Records' },
    cover: null,
    releaseDate: null,
    buy: true,
    newRelease: false,
  }));
  await new CatalogueService(t.services.orm).write(tracks);
  const rows = await t.services.orm.em
    .fork()
    .execute<{ id: string }[]>(`select id from track where external_source = 'work' order by title`);
  trackIds.push(...rows.map((row) => row.id));
  catalogue.push(...tracks.map((track) => ({ artist: track.creators[0].name, title: track.title })));
  // Every mix plays a full tracklist of catalogue tracks, so each track is played in many mixes (Track.mixes has pages).
  for (let index = 0; index < MIXES; index++) {
    const id = await draftMix(t.services, dj, { title: `Work mix ${index}` });
    const entries = Array.from({ length: TRACKLIST_MAX }, (_, position) => ({
      title: `t${position}`,
      creators: ['x'],
      catalogueTrackId: trackIds[(index * 7 + position) % trackIds.length],
    }));
    const set = await gql(t.app, SET_TRACKLIST, { mixId: id, tracks: entries }, dj.token);
    expect(set.errors).toBeUndefined();
    const published = await gql(
      t.app,
      `mutation ($mixId: ID!) { publishMix(mixId: $mixId, code: "free-mix") { id } }`,
      { mixId: id },
      dj.token,
    );
    expect(published.errors).toBeUndefined();
    mixIds.push(id);
    await t.app.inject({ method: 'POST', url: `/api/user/save-mix/${id}`, headers: { 'x-auth-token': dj.token } });
  }
  for (let index = 0; index < 10; index++) drafts.push(await draftMix(t.services, dj));
  for (const member of members) {
    await t.app.inject({ method: 'POST', url: `/api/user/follow/${dj.id}`, headers: { 'x-auth-token': member.token } });
    await t.app.inject({ method: 'POST', url: `/api/user/follow/${member.id}`, headers: { 'x-auth-token': dj.token } });
  }
}, 240_000);
afterAll(() => t?.close());

const SET_TRACKLIST = `mutation ($mixId: ID!, $tracks: [TracklistEntryInput!]!) { setTracklist(mixId: $mixId, tracks: $tracks) { position } }`;

/** Real values for every argument a maximal operation passes: ids of each kind in turn, rows the catalogue matches. */
const values: ArgumentValues = {
  value(coordinate, type, index) {
    const name = coordinate.split('.').at(-1);
    const named = getNamedType(type);
    if (coordinate === 'Query.nodes.ids') return [mixIds, [dj.id, ...members.map((member) => member.id)], trackIds][index % 3][index % 5];
    if (named.name === 'SearchType') return ['MIX', 'MEMBER', 'TRACK'][index % 3];
    if (named.name === 'TrackLookupRowInput') return catalogue[index % catalogue.length];
    if (named.name === 'TracklistEntryInput')
      return { title: `Entry ${index}`, creators: ['A', 'B'], catalogueTrackId: trackIds[index % trackIds.length] };
    if (coordinate === 'Mutation.setTracklist.mixId') return drafts[index % drafts.length];
    if (name === 'id') return [mixIds[index % MIXES], members[index % members.length].id, trackIds[index % trackIds.length]][index % 3];
    if (name === 'trackId') return trackIds[index % trackIds.length];
    if (name === 'mixId') return mixIds[index % MIXES];
    if (name === 'userName') return dj.userName;
    if (name === 'text' || name === 'search' || name === 'query') return WORDS[index % WORDS.length];
    if (name === 'period') return new Date().toISOString().slice(0, 7);
    if (isNonNullType(type) && !isEnumType(named)) throw new Error(`The test has no value for ${coordinate}: add one above`);
    return undefined;
  },
};

const post = (operation: BuiltOperation) => gql(t.app, operation.query, operation.variables, dj.token);

const costOf = (operation: Pick<BuiltOperation, 'query' | 'variables'>) => {
  const document = parse(operation.query);
  const definition = getOperationAST(document);
  if (!definition) throw new Error('no operation');
  return costOfOperation(schema, document, definition, operation.variables);
};

/**
 * The largest operation on one root field the server accepts at `depth`: every list argument and page size as large as
 * allowed, stepping one down (the largest first) where the server refuses a size or the whole cost.
 */
async function largestAccepted(
  kind: 'query' | 'mutation',
  field: GraphQLField<unknown, unknown>,
  depth: number,
): Promise<{ sizes: Map<SizeCoordinate, number>; cost: number }> {
  const sizes = new Map<SizeCoordinate, number>();
  for (;;) {
    const built = new OperationBuilder(schema, values, sizes).build(kind, field, { depth, aliases: 1 });
    const answer: GraphQLResult = await post(built);
    const refusal = answer.errors?.find((error) => ['QUERY_TOO_COMPLEX', 'BAD_USER_INPUT'].includes(error.extensions?.code ?? ''));
    if (!refusal) return { sizes, cost: costOf(built) };
    const path = refusal.path ?? [];
    const candidates =
      refusal.extensions?.code === 'QUERY_TOO_COMPLEX'
        ? [...built.sizedAliases.values()].flat()
        : path.flatMap((part) => built.sizedAliases.get(String(part)) ?? []);
    const sizeOf = (coordinate: SizeCoordinate) => sizes.get(coordinate) ?? SIZE_LADDER[0];
    const largest = candidates.filter((coordinate) => sizeOf(coordinate) > 1).sort((a, b) => sizeOf(b) - sizeOf(a))[0];
    if (!largest) return { sizes, cost: costOf(built) };
    sizes.set(largest, SIZE_LADDER.find((size) => size < sizeOf(largest)) ?? 1);
  }
}

interface Measured {
  operation: string;
  cost: number;
  statements: number;
  paidFor: number;
  status: number;
}

/** The field at its largest, repeated under as many aliases as the cost limit (and the selection limit) lets through. */
async function measure(
  kind: 'query' | 'mutation',
  field: GraphQLField<unknown, unknown>,
  depth: number,
  maxAliases: number,
): Promise<Measured> {
  const { sizes, cost } = await largestAccepted(kind, field, depth);
  const one = new OperationBuilder(schema, values, sizes).build(kind, field, { depth, aliases: 1 });
  const selections = (one.query.match(/[{(]|\w+:/g) ?? []).length;
  const aliases = Math.max(1, Math.min(maxAliases, Math.floor(MAX_COST / cost), Math.floor(MAX_SELECTIONS / selections)));
  const operation = new OperationBuilder(schema, values, sizes).build(kind, field, { depth, aliases });
  let status = 0;
  const statements = await statementsOf(async () => {
    status = (await post(operation)).status;
  });
  const total = costOf(operation);
  return {
    operation: `${kind}.${field.name} depth ${depth} × ${aliases}`,
    cost: total,
    statements: statements.length,
    paidFor: statementsPaidFor(total),
    status,
  };
}

describe('list arguments weigh per item', () => {
  test('40 aliases of nodes(ids:) with 100 ids each (a request of some 140 KB) are a 400 QUERY_TOO_COMPLEX before anything runs', async () => {
    const ids = Array.from({ length: 100 }, (_, index) => [mixIds[index % MIXES], dj.id, trackIds[index % trackIds.length]][index % 3]);
    const aliases = Array.from({ length: 40 }, (_, index) => `n${index}: nodes(ids: ${JSON.stringify(ids)}) { id }`).join(' ');
    const query = `{ ${aliases} }`;
    expect(query.length).toBeGreaterThan(100_000);
    let answer: GraphQLResult | undefined;
    const statements = await statementsOf(async () => {
      answer = await gql(t.app, query);
    });
    expect(answer?.status).toBe(400);
    expect(answer?.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    // Nothing was looked up: no statement touched a mix, a member or a track.
    expect(statements.filter((sql) => /\b(mix|app_user|track)\b/.test(sql))).toEqual([]);
  });

  test('lookupTracks with 30 rows costs what 30 lookups of one row cost', () => {
    const lookup = (rows: number, aliases: number) =>
      `{ ${Array.from({ length: aliases }, (_, index) => `l${index}: lookupTracks(tracks: ${rowsLiteral(rows)}) { id title }`).join(' ')} }`;
    const cost = (query: string) => costOf({ query, variables: {} });
    expect(cost(lookup(30, 1))).toBe(cost(lookup(1, 30)));
    expect(cost(lookup(30, 1))).toBe(30 * (LOOKUP_COST + 2));
  });

  test('the same holds through variables, and for lists inside a mutation (each entry written counts)', () => {
    expect(costOf({ query: `query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`, variables: { ids: Array(50).fill(dj.id) } })).toBe(
      50 * (LOOKUP_COST + 1),
    );
    const entries = Array.from({ length: 30 }, (_, index) => ({ title: `t${index}`, creators: ['x'] }));
    const write = (tracks: unknown[]) => costOf({ query: SET_TRACKLIST, variables: { mixId: dj.id, tracks } });
    const one = write(entries.slice(0, 1));
    const thirty = write(entries);
    expect(thirty - one).toBe(29 * 2);
  });
});

describe('tracklist versions weigh per version', () => {
  const versions = (first?: number) =>
    costOf({
      query: `query ($id: ID!) { mix(id: $id) { tracklistVersions${first ? `(first: ${first})` : ''} { number entries { position } } } }`,
      variables: { id: mixIds[0] },
    });

  test('Mix.tracklistVersions is a lookup whose versions count one by one: asked without `first`, as the 20 it answers', () => {
    // Each version: number, entries and its position (the entries come with their version, in the same statement).
    expect(versions(50) - versions(1)).toBe(49 * 3);
    expect(versions()).toBe(versions(20));
    expect(versions(1) - costOf({ query: 'query ($id: ID!) { mix(id: $id) { id } }', variables: { id: mixIds[0] } })).toBe(
      LOOKUP_COST + 3 - 1,
    );
  });

  test('on every mix of a feed page, its owner gets their versions in statements the cost pays for (one batch for the page)', async () => {
    const query = '{ feed(first: 5) { nodes { tracklistVersions(first: 50) { number entries { position track { title } } } } } }';
    let answer: GraphQLResult<{ feed: { nodes: { tracklistVersions: unknown[] | null }[] } }> | undefined;
    const statements = await statementsOf(async () => {
      answer = await gql(t.app, query, {}, dj.token);
    });
    expect(answer?.errors).toBeUndefined();
    expect(answer?.data?.feed.nodes.every((node) => node.tracklistVersions?.length === 1)).toBe(true);
    expect(statements.length).toBeLessThanOrEqual(statementsPaidFor(costOf({ query, variables: {} })));
  });
});

const rowsLiteral = (rows: number) =>
  `[${Array.from({ length: rows }, (_, index) => `{ artist: "Artist ${index}", title: "${WORDS[index % WORDS.length]}" }`).join(', ')}]`;

describe('statements per operation', () => {
  test(`every query field at its largest, repeated up to the cost limit, sends no more statements than its cost pays for (at most ${statementsPaidFor(MAX_COST)})`, async () => {
    const query = schema.getQueryType();
    const measured: Measured[] = [];
    for (const field of Object.values(query?.getFields() ?? {})) {
      // Wide (every field four levels down, each list at its largest) and narrow (the field alone, aliased to the limit).
      for (const depth of [4, 1]) measured.push(await measure('query', field, depth, Number.POSITIVE_INFINITY));
    }
    expect(measured.length).toBeGreaterThan(40);
    // Each ran (a refused operation would send nothing and prove nothing).
    expect(measured.filter((entry) => entry.status !== 200)).toEqual([]);
    expect(measured.filter((entry) => entry.statements > entry.paidFor)).toEqual([]);
  }, 300_000);

  test('mutations with list arguments too: ten tracklists of 30 entries in one request', async () => {
    const mutation = schema.getMutationType();
    const withLists = Object.values(mutation?.getFields() ?? {}).filter((field) =>
      field.args.some((argument) => isListType(isNonNullType(argument.type) ? argument.type.ofType : argument.type)),
    );
    expect(withLists.map((field) => field.name)).toContain('setTracklist');
    for (const field of withLists) {
      const entry = await measure('mutation', field, 2, 10);
      expect(entry.status, entry.operation).toBe(200);
      expect(entry.statements, entry.operation).toBeLessThanOrEqual(entry.paidFor);
    }
  });

  test('REST: the tracklist lookup takes at most 30 rows and answers 30 in a fixed number of statements', async () => {
    const lookup = (rows: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/track/acquire-track-information',
        headers: { 'x-auth-token': dj.token },
        payload: { tracks_array: catalogue.slice(0, rows).map((row) => ({ artist: row.artist, title: row.title })) },
      });
    expect((await lookup(31)).statusCode).toBe(400);
    const counts: number[] = [];
    for (const rows of [1, 30]) {
      let status = 0;
      const statements = await statementsOf(async () => {
        status = (await lookup(rows)).statusCode;
      });
      expect(status).toBe(200);
      counts.push(statements.length);
    }
    expect(counts[1]).toBe(counts[0]);
  });

  test('REST: saved tracks by id take at most 1,000 ids and answer 1,000 in a fixed number of statements', async () => {
    const byIds = (count: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/get-tracks-by-id',
        headers: { 'x-auth-token': dj.token },
        payload: { trackIds: Array.from({ length: count }, (_, index) => trackIds[index % trackIds.length]) },
      });
    expect((await byIds(1001)).statusCode).toBe(400);
    const counts: number[] = [];
    for (const count of [1, 1000]) {
      let status = 0;
      const statements = await statementsOf(async () => {
        status = (await byIds(count)).statusCode;
      });
      expect(status).toBe(200);
      counts.push(statements.length);
    }
    expect(counts[1]).toBe(counts[0]);
  });
});

describe('what the web app asks', () => {
  test('every operation the web app sends fits the cost limit at the largest sizes it asks for', async () => {
    const documents = await webDocuments();
    const fragments = documents.flatMap((document) =>
      document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION),
    );
    const costs: Record<string, number> = {};
    for (const document of documents) {
      for (const definition of document.definitions) {
        if (definition.kind !== Kind.OPERATION_DEFINITION || definition.operation === 'subscription') continue;
        const variables = Object.fromEntries(
          (definition.variableDefinitions ?? []).map((variable) => {
            const type = typeFromAST(schema, variable.type);
            if (!isInputType(type)) throw new Error(`${variable.variable.name.value} has no input type`);
            const name = variable.variable.name.value;
            if (name !== 'first') return [name, largestValue(name, type)];
            const size = WEB_PAGE_SIZES[definition.name?.value ?? ''];
            if (size === undefined) throw new Error(`Add the page size the web app asks ${definition.name?.value} for to WEB_PAGE_SIZES`);
            return [name, size];
          }),
        );
        const whole = { kind: Kind.DOCUMENT, definitions: [definition, ...fragments] } as const;
        costs[definition.name?.value ?? '?'] = costOfOperation(schema, whole, definition, variables);
      }
    }
    expect(Object.keys(costs).length).toBeGreaterThan(20);
    expect(Object.entries(costs).filter(([, cost]) => cost > MAX_COST)).toEqual([]);
  });
});

/** The page sizes the web app asks for (web/src/pages: home, follows, notifications, profile, search). */
const WEB_PAGE_SIZES: Record<string, number> = {
  SearchResults: 20,
  SearchResultsOfType: 20,
  Feed: 20,
  Following: 20,
  Followers: 20,
  Notifications: 20,
  MixesByUser: 50,
  ForYou: 12,
};

const WEB_SOURCE = join(import.meta.dirname, '..', '..', 'web', 'src');

async function webDocuments() {
  const files = (await readdir(WEB_SOURCE, { recursive: true })).filter((file) => file.endsWith('.graphql'));
  return Promise.all(files.map(async (file) => parse(await readFile(join(WEB_SOURCE, file), 'utf8'))));
}

/** A variable's value at the largest the web app sends: lists of 30 (a tracklist, the lookup's rows). */
function largestValue(name: string, type: GraphQLInputType): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return Array.from({ length: TRACKLIST_MAX }, () => largestValue(name, inner.ofType));
  if (isInputObjectType(inner))
    return Object.fromEntries(Object.values(inner.getFields()).map((field) => [field.name, largestValue(field.name, field.type)]));
  if (isEnumType(inner)) return inner.getValues()[0]?.name;
  switch (inner.name) {
    case 'Int':
    case 'Float':
      return 1;
    case 'Boolean':
      return true;
    case 'DateTimeISO':
      return new Date(0).toISOString();
    default:
      return 'x';
  }
}
