import type { Socket } from 'node:net';
import { buildSchema, type ExecutionResult, parse } from 'graphql';
import { expect, test, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { type Listen, LiveValue, type Stamped } from './live-value.js';
import { type FrameStream, type MessageSocket, PushedResults, subscribeSharingResults, textFrame } from './shared-results.js';

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

/**
 * A socket and its connection, keeping each frame written; `behind` makes the connection report unwritten bytes,
 * `flush` then completes the writes waiting on them.
 */
function socket(extensions = '') {
  const frames: Buffer[] = [];
  const pending: (() => void)[] = [];
  const fake = {
    readyState: WebSocket.OPEN as number,
    extensions,
    behind: false,
    get writableLength() {
      return fake.behind ? 100 : 0;
    },
    write(frame: Buffer, written?: (error?: Error | null) => void) {
      frames.push(Buffer.from(frame));
      if (written) pending.push(() => written());
      return !fake.behind;
    },
    frames,
    /** Each frame's payload, checked to be one unmasked text frame with the payload's length (RFC 6455 5.2). */
    get texts() {
      return frames.map((frame) => {
        expect(frame[0]).toBe(0x81);
        const [offset, length] =
          frame[1] < 126 ? [2, frame[1]] : frame[1] === 126 ? [4, frame.readUInt16BE(2)] : [10, Number(frame.readBigUInt64BE(2))];
        expect(frame.length).toBe(offset + length);
        return frame.subarray(offset).toString();
      });
    },
    flush() {
      fake.behind = false;
      for (const done of pending.splice(0)) done();
    },
  };
  return fake satisfies MessageSocket & FrameStream;
}

const schema = buildSchema('type Query { ok: Boolean } type Subscription { mixListenerCount(mixId: ID!): Int }');
const COUNT = 'subscription ($id: ID!) { mixListenerCount(mixId: $id) }';

const countField = () => {
  const field = schema.getSubscriptionType()?.getFields().mixListenerCount;
  if (!field) throw new Error('the schema has mixListenerCount');
  return field;
};

/** A count subscription as the app makes it: a live value whose current value is `first` (or fails to be read). */
async function subscribeToCount(listen: Listen, first: Count | Error, executed = { count: 0 }, options = { async: false }) {
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
    return options.async ? Promise.resolve(event.count) : event.count;
  };
  const results = await subscribeSharingResults({ schema, document: parse(COUNT), variableValues: { id: 'm1' }, contextValue: {} });
  if (!(results instanceof PushedResults)) throw new Error('a live value is pushed');
  return results;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const format = (result: ExecutionResult) => result;
const nextMessage = (id: string, count: number) => JSON.stringify({ id, type: 'next', payload: { data: { mixListenerCount: count } } });
const countsIn = (texts: string[]) =>
  texts.map((text) => (JSON.parse(text) as { payload: { data: { mixListenerCount: number } } }).payload.data.mixListenerCount);

test('a frame is byte for byte what ws itself writes for the same text, at every length encoding', async () => {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  const accepted = new Promise<{ socket: WebSocket; connection: Socket }>((resolve) =>
    server.once('connection', (socket, request) => resolve({ socket, connection: request.socket })),
  );
  const client = new WebSocket(`ws://127.0.0.1:${port}`);
  try {
    const [{ socket, connection }] = await Promise.all([accepted, new Promise((resolve) => client.once('open', resolve))]);
    const writes = vi.spyOn(connection, 'write');
    for (const length of [0, 1, 125, 126, 127, 65_535, 65_536, 70_000]) {
      const text = 'é'.repeat(Math.floor(length / 2)) + 'x'.repeat(length % 2);
      writes.mockClear();
      socket.send(text);
      const theirs = Buffer.concat(writes.mock.calls.map(([chunk]) => Buffer.from(chunk)));
      const ours = textFrame(Buffer.from(text.slice(0, 3)), Buffer.from(text.slice(3)));
      expect(ours.equals(theirs), `${length} bytes`).toBe(true);
    }
  } finally {
    client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('each socket gets graphql-ws next messages, one frame written to its connection each, and one event is executed once for all', async () => {
  const { listen, publish } = topic();
  const executed = { count: 0 };
  const sockets = [socket(), socket(), socket()];
  const ids = ['a1', 'b-2', `ünï"code-${'long'.repeat(40)}`];
  for (const [index, target] of sockets.entries()) {
    const results = await subscribeToCount(listen, { count: 4, at: 1 }, executed);
    results.deliverTo(target, target, ids[index], format);
  }
  await settle();
  const before = executed.count;
  publish({ count: 5, at: 2 });
  await settle();
  expect(executed.count - before).toBe(1);
  for (const [index, target] of sockets.entries()) {
    expect(target.texts).toEqual([nextMessage(ids[index], 4), nextMessage(ids[index], 5)]);
  }
});

test('a result executed asynchronously is written to every socket once it is ready, executed once', async () => {
  const { listen, publish } = topic();
  const executed = { count: 0 };
  const sockets = [socket(), socket()];
  for (const target of sockets) {
    const results = await subscribeToCount(listen, { count: 1, at: 1 }, executed, { async: true });
    results.deliverTo(target, target, '1', format);
  }
  await settle();
  const before = executed.count;
  publish({ count: 2, at: 2 });
  publish({ count: 3, at: 3 });
  await settle();
  for (const target of sockets) expect(countsIn(target.texts)).toEqual([1, 2, 3]);
  expect(executed.count - before).toBe(2);
});

test('a socket behind on its writes gets the newest value once it catches up, not a backlog', async () => {
  const { listen, publish } = topic();
  const target = socket();
  const results = await subscribeToCount(listen, { count: 0, at: 1 });
  results.deliverTo(target, target, '1', format);
  await settle();
  target.behind = true;
  publish({ count: 1, at: 2 });
  await settle();
  for (let at = 3; at < 20; at += 1) publish({ count: at, at });
  await settle();
  expect(countsIn(target.texts)).toEqual([0, 1]);
  target.flush();
  await settle();
  expect(countsIn(target.texts)).toEqual([0, 1, 19]);
  publish({ count: 20, at: 20 });
  await settle();
  expect(countsIn(target.texts)).toEqual([0, 1, 19, 20]);
});

test('a socket closing gets nothing more; its subscription ends when graphql-ws returns it', async () => {
  const { listen, publish, listeners } = topic();
  const target = socket();
  const results = await subscribeToCount(listen, { count: 0, at: 1 });
  results.deliverTo(target, target, '1', format);
  await settle();
  target.readyState = WebSocket.CLOSING;
  publish({ count: 1, at: 2 });
  await settle();
  expect(countsIn(target.texts)).toEqual([0]);
  await results.return();
  expect(listeners.size).toBe(0);
});

test('on a socket with permessage-deflate the results are pulled through next(), for ws to compress', async () => {
  const { listen, publish } = topic();
  const target = socket('permessage-deflate');
  const results = await subscribeToCount(listen, { count: 3, at: 1 });
  results.deliverTo(target, target, '1', format);
  expect(await results.next()).toEqual({ value: { data: { mixListenerCount: 3 } }, done: false });
  publish({ count: 4, at: 2 });
  expect(await results.next()).toEqual({ value: { data: { mixListenerCount: 4 } }, done: false });
  expect(target.frames).toEqual([]);
  await results.return();
});

test('graphql-ws waits on next() until the subscription ends; a completed subscription sends nothing more', async () => {
  const { listen, publish, listeners } = topic();
  const target = socket();
  const results = await subscribeToCount(listen, { count: 0, at: 1 });
  results.deliverTo(target, target, '1', format);
  const waiting = results.next();
  await settle();
  publish({ count: 1, at: 2 });
  await settle();
  await results.return();
  expect(await waiting).toEqual({ value: undefined, done: true });
  publish({ count: 2, at: 3 });
  await settle();
  expect(target.frames).toHaveLength(2);
  expect(listeners.size).toBe(0);
});

test('a current value that cannot be read ends the subscription with its error', async () => {
  const { listen, listeners } = topic();
  const results = await subscribeToCount(listen, new Error('gone'));
  results.deliverTo(socket(), socket(), '1', format);
  await expect(results.next()).rejects.toThrow('gone');
  expect(listeners.size).toBe(0);
});

test('a message that cannot be made ends each subscription waiting for it with the error, and no other', async () => {
  const { listen, publish } = topic();
  const sockets = [socket(), socket()];
  const subscriptions = [];
  for (const target of sockets) {
    const results = await subscribeToCount(listen, { count: 1, at: 1 });
    results.deliverTo(target, target, '1', (result) => {
      if (result.data?.mixListenerCount === 2) throw new Error('unformattable');
      return result;
    });
    subscriptions.push(results);
  }
  await settle();
  const ended = subscriptions.map((results) => results.next());
  publish({ count: 2, at: 2 });
  for (const end of ended) await expect(end).rejects.toThrow('unformattable');
  for (const target of sockets) expect(countsIn(target.texts)).toEqual([1]);
});

test('without deliverTo (no onOperation hook), the results are pulled through next() as before', async () => {
  const { listen, publish } = topic();
  const results = await subscribeToCount(listen, { count: 3, at: 1 });
  expect(await results.next()).toEqual({ value: { data: { mixListenerCount: 3 } }, done: false });
  publish({ count: 4, at: 2 });
  expect(await results.next()).toEqual({ value: { data: { mixListenerCount: 4 } }, done: false });
  await results.return();
});
