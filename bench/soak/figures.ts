/** Figures per operation, and every failure with what the server said. */

export class Failure extends Error {
  constructor(
    readonly status: number | string,
    readonly detail: string,
  ) {
    super(`${status}: ${detail}`);
  }
}

interface OpStats {
  ms: number[];
  errors: number;
}
interface FailureSample {
  op: string;
  status: number | string;
  atSeconds: number;
  detail: string;
}
export const stats = new Map<string, OpStats>();
export const failures = new Map<string, { count: number; samples: FailureSample[] }>();
/**
 * When the load started (0: not yet), and when an operation (but /media) last succeeded: when nothing has for
 * WEDGED_SECONDS, the server is wedged and the load stops.
 */
export const clock = { loadStartedAt: 0, lastAnswerAt: 0 };
export const WEDGED_SECONDS = 90;
export const elapsedSeconds = () => (clock.loadStartedAt === 0 ? 0 : (performance.now() - clock.loadStartedAt) / 1000);

export function statsOf(op: string): OpStats {
  let entry = stats.get(op);
  if (!entry) {
    entry = { ms: [], errors: 0 };
    stats.set(op, entry);
  }
  return entry;
}

export function fail(op: string, status: number | string, detail: string): void {
  statsOf(op).errors += 1;
  const key = `${op} ${status}`;
  let entry = failures.get(key);
  if (!entry) {
    entry = { count: 0, samples: [] };
    failures.set(key, entry);
  }
  entry.count += 1;
  if (entry.samples.length < 3) entry.samples.push({ op, status, atSeconds: elapsedSeconds(), detail: detail.slice(0, 600) });
}

/** Times one request (or step) as `op`; a wrong status, a GraphQL error, a network error or a timeout is a failure. */
export async function timed<T>(op: string, run: () => Promise<T>): Promise<T | undefined> {
  const started = performance.now();
  try {
    const result = await run();
    const answered = performance.now();
    // /media answers from its cache without the database: only the rest tells a live server from a wedged one.
    if (!op.startsWith('media')) clock.lastAnswerAt = answered;
    statsOf(op).ms.push(answered - started);
    return result;
  } catch (error) {
    statsOf(op).ms.push(performance.now() - started);
    if (error instanceof Failure) fail(op, error.status, error.detail);
    else fail(op, 'network', (error as Error).message ?? String(error));
    return undefined;
  }
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] as number;
}
