import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { expect, test } from 'vitest';
import { DEMO_THREAD_NICENESS, DemoWorkers } from './demo-workers.js';

/** The nice value of each of this process's threads (Linux keeps one per thread). */
const threadNiceValues = () =>
  readdirSync('/proc/self/task').map((thread) => {
    const stat = readFileSync(`/proc/self/task/${thread}/stat`, 'utf8');
    // The fields after the command's closing parenthesis start at the third (state); the nice value is the 19th.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });

test.runIf(process.platform === 'linux' && getPriority() < 19)(
  'the demo world threads run nicer than the server, which keeps its own priority',
  async () => {
    const workers = new DemoWorkers(2);
    try {
      // A job answered means the thread has run its set-up, where it lowers its priority.
      await Promise.all([workers.run({ kind: 'reference', index: 0 }), workers.run({ kind: 'reference', index: 1 })]);
      const nicer = Math.min(19, getPriority() + DEMO_THREAD_NICENESS);
      expect(threadNiceValues().filter((nice) => nice === nicer)).toHaveLength(2);
      expect(getPriority()).toBeLessThan(nicer);
    } finally {
      await workers.close();
    }
  },
  60_000,
);
