import fc from 'fast-check';
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { decodeCursor } from '../src/shared/cursor.js';
import { InvalidInputError } from '../src/shared/errors.js';
import { parseInput } from '../src/shared/inputs.js';
import { freshIp, type Member, signUpMember } from './support/app.js';
import { createFuzzApp, type DatabaseProbe, type FuzzApp, probeDatabase, type Route, routesOf } from './support/fuzz-app.js';
import { type GraphQLCase, graphqlCases } from './support/fuzz-graphql.js';
import { fieldsOf, inputFor, inputModules, unstorableTextIn } from './support/fuzz-inputs.js';
import { bareCase, type RestCase, restCases } from './support/fuzz-rest.js';
import { PASSES, type Pass } from './support/fuzz-values.js';
import { CITIES, draftMix, publishedMix } from './support/mixes.js';

/** Replay a failing run with FUZZ_SEED=<the seed it printed>. */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** FUZZ_SCALE=10 draws ten times the generated cases, for a longer hunt than CI's two minutes allow. */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const BODIES_PER_ROUTE = 6 * SCALE;
const CASES_PER_FIELD = 6 * SCALE;
const REQUEST_TIMEOUT_MS = 15_000;

interface KnownFault {
  where: string;
  /** Which of the walker's findings on `where` this is, matched against the case and the answer. */
  when: RegExp;
  cause: string;
  /** One request that shows it, replayed by a test that fails the day the fix lands, so the entry is removed. */
  reproduce: RestCase;
}

/**
 * 5xx answers whose cause lies outside the GraphQL layer, each being fixed in its own domain. Empty since the last one
 * (a subnormal coordinate, 5e-324, underflowing earthdistance) was fixed in users/user.inputs.ts.
 */
const KNOWN_5XX: KnownFault[] = [];

interface Finding {
  where: string;
  identity: string;
  label: string;
  outcome: string;
  serverErrors: string[];
}

let fuzz: FuzzApp;
let probe: DatabaseProbe;
let member: Member;
let owner: Member;
let publishedMixId: string;
let draftMixId: string;
const findings: Finding[] = [];

beforeAll(async () => {
  fuzz = await createFuzzApp();
  probe = await probeDatabase(fuzz.databaseUrl);
  member = await signUpMember(fuzz.app, { ...CITIES.berlin, userType: 'dj' });
  owner = await signUpMember(fuzz.app, { ...CITIES.paris, userType: 'dj' });
  publishedMixId = await publishedMix(fuzz.app, fuzz.services, owner);
  draftMixId = await draftMix(fuzz.services, member);
}, 120_000);
afterAll(async () => {
  await probe?.close();
  await fuzz?.close();
});

type Identity = [name: string, headers: Record<string, string>];

/**
 * What ends the caller's session reads nothing but its token (sessions.test.ts signs out for real): the walker sends it
 * without the member's token, so the member stays signed in for everything else.
 */
const ENDS_THE_SESSION = new Set([
  'POST /api/auth/logout',
  'POST /api/auth/logout-everywhere',
  'graphql mutation.signOut',
  'graphql mutation.signOutEverywhere',
]);

const identities = (pass: Pass, memberHeaders: Record<string, string>, where: string): Identity[] => [
  ['anonymous', {}],
  ...(ENDS_THE_SESSION.has(where) ? [] : [['member', memberHeaders] satisfies Identity]),
  // An unsigned token (alg none) naming nobody: it must be refused, never trusted or crashed on.
  ...(pass === 'unstorable' ? [['forged token', { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIwIn0.' }] satisfies Identity] : []),
];

/**
 * Broken bodies stop at the body parsers whoever sends them, so only the member sends them; a forged token is refused
 * before anything else is read, so it sends the path cases alone.
 */
const sentAs = ([name]: Identity, request: RestCase) =>
  name === 'member' || (name === 'anonymous' ? request.kind !== 'raw' : request.kind === 'path');

async function send(request: RestCase, identity: Record<string, string>): Promise<{ status: number; body: string } | string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${REQUEST_TIMEOUT_MS} ms`), REQUEST_TIMEOUT_MS);
  });
  try {
    const answer = fuzz.app
      .inject({
        method: request.method,
        url: request.url,
        headers: { ...request.headers, ...identity },
        payload: request.payload,
        remoteAddress: freshIp(),
      })
      .then((response) => ({ status: response.statusCode, body: response.body }));
    return await Promise.race([answer, timeout]);
  } catch (error) {
    return `the request threw ${String(error)}`;
  } finally {
    clearTimeout(timer);
  }
}

/** A GraphQL error coded INTERNAL_SERVER_ERROR is a 5xx in all but status. */
const internalErrorIn = (body: string) => body.includes('"INTERNAL_SERVER_ERROR"');

async function walk(where: string, identity: Identity, request: RestCase): Promise<void> {
  fuzz.takeServerErrors();
  const answer = await send(request, identity[1]);
  const outcome =
    typeof answer === 'string'
      ? answer
      : answer.status >= 500 || internalErrorIn(answer.body)
        ? `${answer.status} ${answer.body.slice(0, 300)}`
        : null;
  if (outcome) findings.push({ where, identity: identity[0], label: request.label, outcome, serverErrors: fuzz.takeServerErrors() });
}

/** A route that changes data when called bare reads no input (add-random-mix): its hostile calls are valid calls. */
async function actsWithoutInput(route: Route, memberHeaders: Record<string, string>): Promise<boolean> {
  const before = await probe.state('checksums');
  await send(bareCase(route), memberHeaders);
  return changedTables(before, await probe.state('checksums')).length > 0;
}

async function liveSchema() {
  const introspection = await fuzz.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json' },
    payload: { query: getIntrospectionQuery() },
  });
  return buildClientSchema(introspection.json<{ data: IntrospectionQuery }>().data);
}

const graphqlRequest = (graphqlCase: GraphQLCase): RestCase => ({
  kind: 'json',
  label: graphqlCase.label,
  method: 'POST',
  url: '/graphql',
  headers: { 'content-type': 'application/json' },
  payload: JSON.stringify({ query: graphqlCase.query, variables: graphqlCase.variables }),
});

function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after).filter((table) => before[table] !== after[table]);
}

describe('the hostile walker', () => {
  test(
    'REST: every route, every pass, signed in and not: never a 5xx, and unstorable input changes no data',
    async () => {
      const routes = routesOf(fuzz.app);
      expect(routes.length).toBeGreaterThan(40);
      let requests = 0;
      const countedOnly: string[] = [];
      for (const pass of PASSES) {
        for (const route of routes) {
          const where = `${route.method} ${route.url}`;
          const memberHeaders = { 'x-auth-token': member.token };
          // Sent anonymously only, what ends a session changes nothing: it is not called as the member here either.
          const checksummed = pass === 'unstorable' && (ENDS_THE_SESSION.has(where) || !(await actsWithoutInput(route, memberHeaders)));
          if (pass === 'unstorable' && !checksummed) countedOnly.push(where);
          const measure = checksummed ? 'checksums' : 'rows';
          const before = await probe.state(measure);
          const cases = restCases(route, pass, SEED, BODIES_PER_ROUTE);
          for (const identity of identities(pass, memberHeaders, where)) {
            for (const request of cases.filter((candidate) => sentAs(identity, candidate))) {
              await walk(where, identity, request);
              requests++;
            }
          }
          const changed = changedTables(before, await probe.state(measure));
          if (changed.length > 0)
            findings.push({
              where,
              identity: 'any',
              label: `${pass} pass`,
              outcome: `changed ${measure} of ${changed.join(', ')}`,
              serverErrors: [],
            });
        }
      }
      console.info(
        `REST walker: ${routes.length} routes, ${requests} requests, seed ${SEED}; rows counted, not checksummed, for ${countedOnly.join(', ')}`,
      );
    },
    240_000 * SCALE,
  );

  test(
    'REST with real ids in the path: hostile bodies on a real mix, member and draft never make a 5xx',
    async () => {
      const realIds = [publishedMixId, draftMixId, owner.id, owner.userName, member.userName];
      const values = (parameter: string) => (parameter === 'page' ? ['0', '1', '2'] : realIds);
      let requests = 0;
      for (const route of routesOf(fuzz.app).filter((candidate) => /:/.test(candidate.url))) {
        for (const pass of PASSES) {
          for (const request of restCases(route, pass, SEED + 1, BODIES_PER_ROUTE, values)) {
            await walk(`${route.method} ${route.url}`, ['member', { 'x-auth-token': member.token }], request);
            requests++;
          }
        }
      }
      console.info(`REST walker with real ids: ${requests} requests`);
    },
    240_000 * SCALE,
  );

  test(
    'GraphQL: every query and mutation field, hostile arguments inline and as variables: never a 5xx',
    async () => {
      const schema = await liveSchema();
      let requests = 0;
      let fields = 0;
      for (const pass of PASSES) {
        const measure = pass === 'unstorable' ? 'checksums' : 'rows';
        for (const { field, cases } of graphqlCases(schema, pass, SEED, CASES_PER_FIELD)) {
          fields++;
          const before = await probe.state(measure);
          for (const identity of identities(pass, { authorization: `Bearer ${member.token}` }, `graphql ${field}`)) {
            // A forged token fails the whole request before the operation is read: one case per field shows it.
            for (const graphqlCase of identity[0] === 'forged token' ? cases.slice(0, 1) : cases) {
              await walk(`graphql ${field}`, identity, graphqlRequest(graphqlCase));
              requests++;
            }
          }
          const changed = changedTables(before, await probe.state(measure));
          if (changed.length > 0)
            findings.push({
              where: `graphql ${field}`,
              identity: 'any',
              label: `${pass} pass`,
              outcome: `changed ${measure} of ${changed.join(', ')}`,
              serverErrors: [],
            });
        }
      }
      console.info(`GraphQL walker: ${fields} field passes, ${requests} requests`);
    },
    240_000 * SCALE,
  );

  test(
    'GraphQL with real ids: every ID a real mix, member or draft, the other arguments hostile: never a 5xx',
    async () => {
      const schema = await liveSchema();
      const identity: Identity = ['member', { authorization: `Bearer ${member.token}` }];
      let requests = 0;
      for (const pass of PASSES) {
        for (const { field, hasArguments, cases } of graphqlCases(schema, pass, SEED + 1, CASES_PER_FIELD, [
          publishedMixId,
          draftMixId,
          owner.id,
        ])) {
          if (!hasArguments) continue;
          for (const graphqlCase of cases) {
            await walk(`graphql ${field}`, identity, graphqlRequest(graphqlCase));
            requests++;
          }
        }
      }
      console.info(`GraphQL walker with real ids: ${requests} requests`);
    },
    240_000 * SCALE,
  );

  test('no finding outside KNOWN_5XX', () => {
    const known = (finding: Finding) =>
      KNOWN_5XX.some((entry) => entry.where === finding.where && entry.when.test(`${finding.label} ${finding.outcome}`));
    const unexpected = findings.filter((finding) => !known(finding));
    const summary = new Map<string, { count: number; example: Finding }>();
    for (const finding of unexpected) {
      const key = `${finding.where} → ${finding.outcome.slice(0, 80)} ${finding.serverErrors[0] ?? ''}`;
      const seen = summary.get(key);
      if (seen) seen.count++;
      else summary.set(key, { count: 1, example: finding });
    }
    const report = [...summary.values()]
      .map(
        ({ count, example }) =>
          `${count}× ${example.where} as ${example.identity}: ${example.label}\n    → ${example.outcome}\n    ${example.serverErrors.join('\n    ')}`,
      )
      .join('\n');
    expect(unexpected.length, `hostile input findings (replay with FUZZ_SEED=${SEED}):\n${report}`).toBe(0);
  });
});

// Each known fault's request is replayed here; the test fails the day its fix lands, and then its entry goes.
for (const fault of KNOWN_5XX) {
  test.fails(`KNOWN_5XX, to remove once fixed: ${fault.where}: ${fault.cause}`, async () => {
    const answer = await send(fault.reproduce, { 'x-auth-token': member.token });
    expect(typeof answer === 'string' || answer.status >= 500 || internalErrorIn(answer.body)).toBe(false);
  });
}

/** Exported functions of the input modules that are no schema: the parser under test and its text checks. */
const NOT_SCHEMAS = new Set(['parseInput', 'isStorableText', 'whyUnstorable']);
/** Schema factories, with the arguments their callers pass; an exported function in neither list fails the test. */
const FACTORY_CALLS: Record<string, unknown[][]> = {
  storable: [[z.string()]],
  text: [[100]],
  pageNumber: [[0], [1]],
  pageSize: [[50, 20]],
  cursorPage: [[50, (cursor: string) => decodeCursor(cursor, () => true)]],
  moment: [['start']],
  listenMomentInput: [['start'], ['end']],
};
const RUNS_PER_SCHEMA = 200 * SCALE;
/** Schemas that hand a field on unparsed, with the parse that reads it later. */
const PARSED_LATER: Record<string, string> = {
  'modules/library/library.inputs.ts currentMixInput': 'mixId is z.unknown(): LibraryService.saveCurrentMix parses it with mixIdInput',
};

/** Parsing either gives a value whose every text PostgreSQL can store, or throws a 400; anything else is a fault. */
function parsesOrRefuses(parse: (input: unknown) => unknown, handsOnUnparsed = false) {
  return (input: unknown) => {
    let parsed: unknown;
    try {
      parsed = parse(input);
    } catch (error) {
      if (error instanceof InvalidInputError && error.status === 400) return;
      throw error;
    }
    const where = handsOnUnparsed ? null : unstorableTextIn(parsed);
    if (where) throw new Error(`accepted text PostgreSQL cannot store, at ${where}`);
  };
}

describe('every input schema, by fast-check: any input parses or is a 400, and accepted text is storable', async () => {
  for (const { file, exports } of await inputModules()) {
    for (const [name, exported] of Object.entries(exports)) {
      const label = `${file} ${name}`;
      if (exported instanceof z.ZodType) {
        test(label, () => {
          const handsOnUnparsed = label in PARSED_LATER;
          const parse = parsesOrRefuses((input) => parseInput(exported, input), handsOnUnparsed);
          fc.assert(fc.property(inputFor(exported), parse), { seed: SEED, numRuns: RUNS_PER_SCHEMA });
        });
      } else if (typeof exported === 'function' && !NOT_SCHEMAS.has(name)) {
        test(label, () => {
          const call = exported as (...args: unknown[]) => unknown;
          if (/^parse[A-Z]/.test(name)) {
            // A page parser takes the object its skin builds (`{ page }` or `{ first, after, last, before }`), whatever is in it.
            const request = fieldsOf(['page', 'limit', 'first', 'after', 'last', 'before']);
            fc.assert(fc.property(request, parsesOrRefuses(call)), { seed: SEED, numRuns: RUNS_PER_SCHEMA });
            return;
          }
          const calls = FACTORY_CALLS[name];
          expect(calls, `${label} is neither a schema nor a known factory: add how it is called to FACTORY_CALLS`).toBeDefined();
          for (const args of calls) {
            const schema = call(...args);
            expect(schema).toBeInstanceOf(z.ZodType);
            if (schema instanceof z.ZodType)
              fc.assert(
                fc.property(
                  inputFor(schema),
                  parsesOrRefuses((input) => parseInput(schema, input)),
                ),
                { seed: SEED, numRuns: RUNS_PER_SCHEMA },
              );
          }
        });
      }
    }
  }
});
