import { inspect } from 'node:util';

/**
 * How long a test waits for something it expects to happen, by default. Generous on purpose: a machine running two
 * suites at once takes many times longer than a quiet one, and a passing test never waits it out. Below the test
 * timeout (vitest.config.ts), so an event that never comes fails with what it was, not with "test timed out".
 */
export const WAIT_MS = 30_000;

export interface WaitOptions<T> {
  /** When the value read means the event happened; by default, when it is truthy. */
  until?: (value: T) => boolean;
  timeoutMs?: number;
}

/**
 * Reads `read` until the event it stands for has happened (`until`), and answers the last value read. Tests wait on
 * events (the file gone, the job finished, the socket subscribed) with this rather than on a clock; when the bound
 * passes, the error says what was awaited and what was seen last.
 */
export async function waitFor<T>(what: string, read: () => T | Promise<T>, options: WaitOptions<T> = {}): Promise<T> {
  const { until = Boolean, timeoutMs = WAIT_MS } = options;
  const deadline = performance.now() + timeoutMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    const value = await read();
    if (until(value)) return value;
    if (performance.now() >= deadline) {
      const seen = inspect(value, { depth: 3, breakLength: Infinity, maxArrayLength: 20, maxStringLength: 200 });
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what} (last seen: ${seen.length > 500 ? `${seen.slice(0, 500)}…` : seen})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * Waits for a promise that stands for an event (a socket closing, a handler settling), failing with what it was when
 * the bound passes.
 */
export async function waitForEvent<T>(what: string, event: Promise<T>, timeoutMs = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([event, bound]);
  } finally {
    clearTimeout(timer);
  }
}
