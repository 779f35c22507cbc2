import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, freshIp, type TestApp } from './support/app.js';

let t: TestApp;
let wsUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  wsUrl = `ws://127.0.0.1:${address.port}/graphql`;
});
afterAll(() => t.close());

interface Answer {
  status: number;
  errors?: { message: string; extensions?: { code?: string } }[];
  data?: Record<string, unknown> | null;
}

async function post(body: Record<string, unknown>, app = t.app): Promise<Answer> {
  const response = await app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json' },
    payload: body,
    remoteAddress: freshIp(),
  });
  return { status: response.statusCode, ...response.json() };
}

const NO_SUCH_MIX = '00000000-0000-4000-8000-000000000000';
const aliasedPlays = (count: number) =>
  `mutation { ${Array.from({ length: count }, (_, i) => `p${i}: playMix(mixId: "${NO_SUCH_MIX}")`).join(' ')} }`;

describe('variables and operation names', () => {
  test('a variable of the wrong type is a 400 BAD_USER_INPUT naming the variable', async () => {
    const answer = await post({ query: 'query Profile($name: String!) { user(userName: $name) { id } }', variables: { name: 5 } });
    expect(answer.status).toBe(400);
    expect(answer.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0].message).toMatch(/\$name/);
  });

  test('a missing required variable is a 400 BAD_USER_INPUT naming the variable', async () => {
    const answer = await post({ query: 'query Feed($size: Int!) { feed(first: $size) { edges { cursor } } }', variables: {} });
    expect(answer.status).toBe(400);
    expect(answer.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0].message).toMatch(/\$size/);
  });

  test('an input object variable with a field of the wrong type is a 400 BAD_USER_INPUT', async () => {
    const answer = await post({
      query: 'mutation Join($input: SignUpInput!) { signUp(input: $input) { token } }',
      variables: { input: { email: ['x'], password: { nested: true } } },
    });
    expect(answer.status).toBe(400);
    expect(answer.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0].message).toMatch(/\$input/);
  });

  test('an unknown operationName is a 400, not a failure of the server', async () => {
    for (const query of ['query Mine { me { id } }', '{ me { id } }']) {
      const answer = await post({ query, operationName: 'Theirs' });
      expect(answer.status).toBe(400);
      expect(answer.errors?.[0].extensions?.code).toBe('OPERATION_RESOLUTION_FAILURE');
      expect(answer.errors?.[0].message).toMatch(/Theirs/);
    }
  });
});

describe('documents that would loop', () => {
  test('a fragment that spreads itself is a validation error over HTTP', async () => {
    const answer = await post({ query: 'fragment F on Query { ...F } query { ...F }' });
    expect(answer.status).toBe(400);
    expect(answer.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(answer.errors?.[0].message).toMatch(/Cannot spread fragment "F" within itself/);
  });

  test('two fragments spreading each other and an unknown fragment are validation errors', async () => {
    const cycle = await post({ query: 'fragment A on Query { me { id } ...B } fragment B on Query { ...A } query { ...A }' });
    expect(cycle.status).toBe(400);
    expect(cycle.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const unknown = await post({ query: 'query { ...Nowhere }' });
    expect(unknown.status).toBe(400);
    expect(unknown.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  test('fragments that multiply into millions of selections are refused from their shape, unexpanded, introspection included', async () => {
    const multiplying = (type: string, leaf: string) =>
      Array.from({ length: 8 }, (_, level) => {
        const spreads = level === 7 ? leaf : Array.from({ length: 10 }, () => `...L${level + 1}`).join(' ');
        return `fragment L${level} on ${type} { ${spreads} }`;
      }).join(' ');
    for (const query of [
      `${multiplying('Query', 'me { id }')} query { ...L0 }`,
      `${multiplying('__Type', 'name')} query { __schema { types { ...L0 } } }`,
    ]) {
      const answer = await post({ query });
      expect(answer.status).toBe(400);
      expect(answer.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
      // Refused from the fragments' shape, counted without expanding them (millions of selections would not answer
      // within the test's time if anything expanded them first).
      expect(answer.errors?.[0].message).toMatch(/reaches [0-9,]{10,} selections through its fragments/);
    }
  });
});

describe('what HTTP does not carry', () => {
  test('a subscription sent as an HTTP POST is a 400 that points to the WebSocket', async () => {
    const answer = await post({ query: 'subscription { profileUpdated(userName: "someone") { id } }' });
    expect(answer.status).toBe(400);
    expect(answer.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(answer.errors?.[0].message).toMatch(/WebSocket.*\/graphql.*graphql-ws/);
  });

  test('a persisted-query hash that does not match the query is a 400 BAD_REQUEST', async () => {
    const answer = await post({
      query: '{ me { id } }',
      extensions: { persistedQuery: { version: 1, sha256Hash: 'not-the-hash' } },
    });
    expect(answer.status).toBe(400);
    expect(answer.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
  });
});

describe('mutations in the cost limit', () => {
  test('ten mutations in one request run; eleven are refused before any runs', async () => {
    const ten = await post({ query: aliasedPlays(10) });
    expect(ten.status).toBe(200);
    expect(ten.errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const many = await post({ query: aliasedPlays(999) });
    expect(many.status).toBe(400);
    expect(many.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    expect(many.errors?.[0].message).toMatch(/at most 10 mutations/);
    expect(many.data).toBeUndefined();
  });

  test('mutations hidden in fragments count too', async () => {
    const fields = Array.from({ length: 11 }, (_, i) => `p${i}: playMix(mixId: "${NO_SUCH_MIX}")`).join(' ');
    const answer = await post({ query: `fragment Plays on Mutation { ${fields} } mutation { ...Plays }` });
    expect(answer.status).toBe(400);
    expect(answer.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
  });

  test('a mutation weighs 50, a lookup 20, a field 1', async () => {
    const tight = await createTestApp({ GRAPHQL_MAX_COST: '120' }, { databaseUrl: t.databaseUrl });
    try {
      // Each read costs 21 (the lookup and its id): 5 of them fit where 3 mutations do not, and a sixth does not.
      const reads = (count: number) => Array.from({ length: count }, (_, i) => `u${i}: user(userName: "nobody") { id }`).join(' ');
      expect((await post({ query: `{ ${reads(5)} }` }, tight.app)).status).toBe(200);
      expect((await post({ query: `{ ${reads(6)} }` }, tight.app)).errors?.[0].message).toMatch(/costs 126/);
      expect((await post({ query: aliasedPlays(2) }, tight.app)).status).toBe(200);
      const three = await post({ query: aliasedPlays(3) }, tight.app);
      expect(three.status).toBe(400);
      expect(three.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
      expect(three.errors?.[0].message).toMatch(/costs 150/);
    } finally {
      await tight.close();
    }
  });
});

describe('over graphql-ws', () => {
  // The protocol spoken by hand, so a closed socket is seen as it happens and no client library reconnects or hides it.
  let socket: WebSocket;
  const closes: number[] = [];
  type Message = { id?: string; type: string; payload?: unknown };
  const received = (predicate: (message: Message) => boolean) =>
    new Promise<Message>((resolve, reject) => {
      const closed = (code: number) => reject(new Error(`the server closed the socket with ${code}`));
      const listen = (data: WebSocket.RawData) => {
        const message: Message = JSON.parse(String(data));
        if (!predicate(message)) return;
        socket.off('message', listen);
        socket.off('close', closed);
        resolve(message);
      };
      socket.on('message', listen);
      socket.once('close', closed);
    });
  let nextId = 0;
  beforeAll(async () => {
    socket = new WebSocket(wsUrl, 'graphql-transport-ws');
    socket.on('close', (code) => closes.push(code));
    await new Promise((resolve) => socket.once('open', resolve));
    const acknowledged = received((message) => message.type === 'connection_ack');
    socket.send(JSON.stringify({ type: 'connection_init' }));
    await acknowledged;
  });
  afterAll(() => socket.close());

  type Outcome = { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
  async function run(query: string, variables?: Record<string, unknown>): Promise<Outcome> {
    const id = String(++nextId);
    const answered = received((message) => message.id === id && message.type !== 'complete');
    socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } }));
    const answer = await answered;
    return (answer.type === 'error' ? { errors: answer.payload } : answer.payload) as Outcome;
  }

  test('a fragment cycle comes back as an error on that operation, and the socket stays open', async () => {
    const cycle = await run('fragment F on Subscription { ...F } subscription { ...F }');
    expect(cycle.errors?.[0].message).toMatch(/Cannot spread fragment "F" within itself/);
    expect(cycle.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const after = await run('{ me { id } }');
    expect(after.data).toEqual({ me: null });
    expect(closes).toEqual([]);
  });

  test('errors carry extensions.code as over HTTP', async () => {
    const syntax = await run('subscription { profileUpdated(userName: ');
    expect(syntax.errors?.[0].extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    const unknownField = await run('subscription { nothingHere }');
    expect(unknownField.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const missingVariable = await run('subscription Watch($name: String!) { profileUpdated(userName: $name) { id } }', {});
    expect(missingVariable.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(missingVariable.errors?.[0].message).toMatch(/\$name/);
    const unknownOperation = await run('query Mine { me { id } } query Yours { me { id } }');
    expect(unknownOperation.errors?.[0].extensions?.code).toBe('OPERATION_RESOLUTION_FAILURE');
    const anonymous = await run('{ searchMembers(text: "a") { userName } }');
    expect(anonymous.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(closes).toEqual([]);
  });

  test('the mutation cap holds over the WebSocket too', async () => {
    const outcome = await run(aliasedPlays(11));
    expect(outcome.errors?.[0].extensions?.code).toBe('QUERY_TOO_COMPLEX');
    expect(closes).toEqual([]);
  });
});
