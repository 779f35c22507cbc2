import { expect, test } from 'vitest';
import { type Listen, LiveValue } from './live-value.js';

interface Count {
  count: number;
  at: number;
}

/** A topic to publish on by hand, and how many listen to it. */
function topic() {
  const listeners = new Set<(payload: unknown) => void>();
  const listen: Listen = (_topic, listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return {
    listen,
    publish: (value: Count) => {
      for (const listener of [...listeners]) listener(value);
    },
    listeners,
  };
}

const same = (a: Count, b: Count) => a.count === b.count;
const values = async (live: LiveValue<Count>, n: number) => {
  const seen: number[] = [];
  for (let i = 0; i < n; i += 1) seen.push(((await live.next()).value as Count).count);
  return seen;
};

test('the current value first, then changes; older and repeated values are dropped', async () => {
  const { listen, publish } = topic();
  let answer: (value: Count) => void = () => undefined;
  const live = new LiveValue<Count>(listen, 't', () => new Promise((resolve) => (answer = resolve)), same);
  // A change heard while the current value is read, but read before it: dropped once the current value arrives.
  publish({ count: 7, at: 5 });
  answer({ count: 1, at: 10 });
  expect(await values(live, 1)).toEqual([1]);
  publish({ count: 1, at: 11 });
  publish({ count: 2, at: 9 });
  publish({ count: 3, at: 12 });
  expect(await values(live, 1)).toEqual([3]);
});

test('a slow consumer gets the newest value, not a backlog; return stops listening', async () => {
  const { listen, publish, listeners } = topic();
  const live = new LiveValue<Count>(listen, 't', async () => ({ count: 0, at: 1 }), same);
  expect(await values(live, 1)).toEqual([0]);
  for (let at = 2; at < 50; at += 1) publish({ count: at, at });
  expect(await values(live, 1)).toEqual([49]);
  const waiting = live.next();
  await live.return();
  expect(await waiting).toEqual({ value: undefined, done: true });
  expect(listeners.size).toBe(0);
});

test('a failed read of the current value ends the stream with the error', async () => {
  const { listen, listeners } = topic();
  const live = new LiveValue<Count>(listen, 't', async () => Promise.reject(new Error('gone')), same);
  await expect(live.next()).rejects.toThrow('gone');
  expect(listeners.size).toBe(0);
});
