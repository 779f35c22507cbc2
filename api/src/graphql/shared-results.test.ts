import { buildSchema, type ExecutionResult, parse } from 'graphql';
import { expect, test } from 'vitest';
import { type Listen, LiveValue, type Stamped } from './live-value.js';
import { type MessageSocket, PushedResults, subscribeSharingResults } from './shared-results.js';

interface Count extends Stamped {
  count: number;
}

/** A topic to publish on by hand. */
function topic() {
  const listeners = new Set<(payload: unknown) => void>();
  const listen: Listen = (_topic, listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const publish = (value: Count) => {
    for (const listener of [...listeners]) listener(value);
  };
  return { listen, listeners, publish };
}

/** A socket that keeps what it was sent; `behind` makes it report unflushed bytes, `flush` then completes its writes. */
function socket() {
  const sent: { text: string; binary: boolean }[] = [];
  const pending: (() => void)[] = [];
  const fake = {
    readyState: 1,
    behind: false,
    get bufferedAmount() {
      return fake.behind ? 100 : 0;
    },
    send(data: Buffer, options: { binary: boolean }, written?: (error?: Error) => void) {
      sent.push({ text: data.toString(), binary: options.binary });
      if (written) pending.push(() => written());
    },
    sent,
    flush() {
      fake.behind = false;
      for (const done of pending.splice(0)) done();
    },
  };
  return fake satisfies MessageSocket & { behind: boolean };
}

const schema = buildSchema('type Query { ok: Boolean } type Subscription { mixListenerCount(mixId: ID!): Int }');
const COUNT = 'subscription ($id: ID!) { mixListenerCount(mixId: $id) }';

const countField = () => {
  const field = schema.getSubscriptionType()?.getFields().mixListenerCount;
  if (!field) throw new Error('the schema has mixListenerCount');
  return field;
};

/** A count subscription as the app makes it: a live value whose current value is `first` (or fails to be read). */
async function subscribeToCount(listen: Listen, first: Count | Error, executed = { count: 0 }) {
  const field = countField();
  field.subscribe = () =>
    new LiveValue<Count>(
      listen,
      'count',
      async () => (first instanceof Error ? Promise.reject(first) : first),
      (a, b) => a.count === b.count,
    );
  field.resolve = (event: Count) => {
    executed.count += 1;
    return event.count;
  };
  const results = await subscribeSharingResults({ schema, document: parse(COUNT), variableValues: { id: 'm1' }, contextValue: {} });
  if (!(results instanceof PushedResults)) throw new Error('a live value is pushed');
  return results;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const format = (result: ExecutionResult) => result;

test('each socket gets graphql-ws next messages, text frames byte for byte, and one event is executed once for all', async () => {
  const { listen, publish } = topic();
  const executed = { count: 0 };
  const sockets = [socket(), socket(), socket()];
  const ids = ['a1', 'b-2', 'ünï"code'];
  for (const [index, target] of sockets.entries()) {
    const results = await subscribeToCount(listen, { count: 4, at: 1 }, executed);
    results.deliverTo(target, ids[index], format);
  }
  await settle();
  const before = executed.count;
  publish({ count: 5, at: 2 });
  expect(executed.count - before).toBe(1);
  for (const [index, target] of sockets.entries()) {
    const expected = (count: number) => JSON.stringify({ id: ids[index], type: 'next', payload: { data: { mixListenerCount: count } } });
    expect(target.sent).toEqual([
      { text: expected(4), binary: false },
      { text: expected(5), binary: false },
    ]);
  }
});

test('a socket behind on its writes gets the newest value once it catches up, not a backlog', async () => {
  const { listen, publish } = topic();
  const target = socket();
  const results = await subscribeToCount(listen, { count: 0, at: 1 });
  results.deliverTo(target, '1', format);
  await settle();
  target.behind = true;
  publish({ count: 1, at: 2 });
  for (let at = 3; at < 20; at += 1) publish({ count: at, at });
  const counts = () =>
    target.sent.map(({ text }) => (JSON.parse(text) as { payload: { data: { mixListenerCount: number } } }).payload.data.mixListenerCount);
  expect(counts()).toEqual([0, 1]);
  target.flush();
  expect(counts()).toEqual([0, 1, 19]);
  publish({ count: 20, at: 20 });
  expect(counts()).toEqual([0, 1, 19, 20]);
});

test('graphql-ws waits on next() until the subscription ends; a completed subscription sends nothing more', async () => {
  const { listen, publish, listeners } = topic();
  const target = socket();
  const results = await subscribeToCount(listen, { count: 0, at: 1 });
  results.deliverTo(target, '1', format);
  const waiting = results.next();
  await settle();
  publish({ count: 1, at: 2 });
  await results.return();
  expect(await waiting).toEqual({ value: undefined, done: true });
  publish({ count: 2, at: 3 });
  expect(target.sent).toHaveLength(2);
  expect(listeners.size).toBe(0);
});

test('a current value that cannot be read ends the subscription with its error', async () => {
  const { listen, listeners } = topic();
  const results = await subscribeToCount(listen, new Error('gone'));
  results.deliverTo(socket(), '1', format);
  await expect(results.next()).rejects.toThrow('gone');
  expect(listeners.size).toBe(0);
});

test('without deliverTo (no onOperation hook), the results are pulled through next() as before', async () => {
  const { listen, publish } = topic();
  const results = await subscribeToCount(listen, { count: 3, at: 1 });
  expect(await results.next()).toEqual({ value: { data: { mixListenerCount: 3 } }, done: false });
  publish({ count: 4, at: 2 });
  expect(await results.next()).toEqual({ value: { data: { mixListenerCount: 4 } }, done: false });
  await results.return();
});
