import { MB, out } from '../support.js';
import { failures, percentile, stats } from './figures.js';
import type { Sample } from './machine.js';
import { RATE, RSS_EVERY_MS, TARGET_GROWTH, WARMUP } from './settings.js';

/** The soak's figures, printed once the load is over. */

export interface LoadFigures {
  /** Seconds from the load's start to its last answer. */
  loadSeconds: number;
  loadAtEnd: string;
  sent: number;
  sendingSeconds: number;
  /** How late each operation was sent (ms). */
  lags: number[];
  pushes: number;
  uploads: number;
  publishedMixes: number;
  /** The server's CPU seconds during the load. */
  cpuUsed: number;
  samples: Sample[];
  /** What the database was doing when requests piled up. */
  stalls: string[];
}

/** Per operation: count, errors, p50, p99, max; then the run's totals and the machine. Answers the errors counted. */
export function printOperations({
  loadSeconds,
  loadAtEnd,
  sent,
  sendingSeconds,
  lags,
  pushes,
  uploads,
  publishedMixes,
  cpuUsed,
  samples,
  stalls,
}: LoadFigures): number {
  out();
  out(`| operation | count | errors | p50 ms | p99 ms | max ms |  (${loadSeconds.toFixed(0)} s, load average ${loadAtEnd} at the end)`);
  out('|---|---|---|---|---|---|');
  const all: number[] = [];
  let errorTotal = 0;
  let countTotal = 0;
  const rows = [...stats.entries()].sort(([a], [b]) => a.localeCompare(b));
  for (const [op, entry] of rows) {
    const sorted = [...entry.ms].sort((a, b) => a - b);
    const isPush = op.startsWith('push:');
    if (!isPush) {
      all.push(...sorted);
      errorTotal += entry.errors;
      countTotal += entry.ms.length;
    }
    out(
      `| ${op} | ${sorted.length} | ${entry.errors} | ${percentile(sorted, 0.5).toFixed(1)} | ${percentile(sorted, 0.99).toFixed(1)} | ${(sorted.at(-1) ?? Number.NaN).toFixed(1)} |`,
    );
  }
  all.sort((a, b) => a - b);
  out(
    `| **overall** | ${countTotal} | ${errorTotal} | ${percentile(all, 0.5).toFixed(1)} | ${percentile(all, 0.99).toFixed(1)} | ${(all.at(-1) ?? Number.NaN).toFixed(1)} |`,
  );
  lags.sort((a, b) => a - b);
  out();
  out(
    `sent ${sent} operations in ${sendingSeconds.toFixed(0)} s (${(sent / sendingSeconds).toFixed(1)}/s, target ${RATE}/s), the last answered at ${loadSeconds.toFixed(0)} s; ` +
      `sending lag p99 ${percentile(lags, 0.99).toFixed(1)} ms, max ${(lags.at(-1) ?? 0).toFixed(1)} ms; ${pushes} subscription pushes; ` +
      `${uploads} uploads; ${publishedMixes} published mixes at the end`,
  );
  out(`server CPU: ${cpuUsed.toFixed(0)} s over ${loadSeconds.toFixed(0)} s (${((cpuUsed / loadSeconds) * 100).toFixed(0)}% of one core)`);
  const spread = (values: number[]) =>
    `min ${Math.min(...values).toFixed(2)}, mean ${(values.reduce((a, b) => a + b, 0) / values.length).toFixed(2)}, max ${Math.max(...values).toFixed(2)}`;
  out(
    `load average (1 min) during the run: ${spread(samples.map((entry) => entry.load))}; CPU pressure (some, avg10 %): ${spread(samples.map((entry) => entry.cpuPressure))}`,
  );
  if (stalls.length > 0) {
    out(
      `requests piled up (more than ${RATE * 3} in flight) ${stalls.length === 6 ? 'at least ' : ''}${stalls.length} times; the database then:`,
    );
    for (const stall of stalls) out(`    ${stall}`);
  }
  return errorTotal;
}

/**
 * The server's RSS at the start, after warm-up and at the end, its trend, and 15 s after the load stopped (`idle`);
 * answers the growth after warm-up (NaN without samples).
 */
export function printMemory(samples: Sample[], idle: { rss: number; load: string } | undefined): number {
  const first = samples[0];
  const warm = samples.find((entry) => entry.atSeconds >= WARMUP) ?? samples.at(-1);
  const last = samples.at(-1);
  let growth = Number.NaN;
  if (first && warm && last) {
    growth = (last.rss - warm.rss) / warm.rss;
    const after = samples.filter((entry) => entry.atSeconds >= warm.atSeconds);
    // Least squares over the samples after warm-up: a leak climbs steadily, noise does not.
    const meanT = after.reduce((sum, entry) => sum + entry.atSeconds, 0) / after.length;
    const meanR = after.reduce((sum, entry) => sum + entry.rss, 0) / after.length;
    const slope =
      after.reduce((sum, entry) => sum + (entry.atSeconds - meanT) * (entry.rss - meanR), 0) /
      Math.max(
        1e-9,
        after.reduce((sum, entry) => sum + (entry.atSeconds - meanT) ** 2, 0),
      );
    const peak = Math.max(...after.map((entry) => entry.rss));
    out();
    out(`server RSS at the start of the load: ${(first.rss / MB).toFixed(1)} MB (load average ${first.load.toFixed(2)})`);
    out(
      `server RSS after warm-up (${warm.atSeconds.toFixed(0)} s): ${(warm.rss / MB).toFixed(1)} MB (load average ${warm.load.toFixed(2)})`,
    );
    out(`server RSS at the end (${last.atSeconds.toFixed(0)} s): ${(last.rss / MB).toFixed(1)} MB (load average ${last.load.toFixed(2)})`);
    out(
      `growth after warm-up: ${(growth * 100).toFixed(1)}% (target < ${TARGET_GROWTH * 100}%): ${growth < TARGET_GROWTH ? 'met' : 'MISSED'}; ` +
        `peak ${(peak / MB).toFixed(1)} MB; trend ${((slope * 60) / MB).toFixed(2)} MB/min over ${after.length} samples`,
    );
    // RSS saws up and down with garbage collection: the median of a window after warm-up against one at the end.
    const window = Math.max(RSS_EVERY_MS / 1000, Math.min(60, (last.atSeconds - warm.atSeconds) / 3));
    const median = (from: number, to: number) => {
      const values = after
        .filter((entry) => entry.atSeconds >= from && entry.atSeconds <= to)
        .map((entry) => entry.rss)
        .sort((a, b) => a - b);
      return values[Math.floor(values.length / 2)] ?? Number.NaN;
    };
    const early = median(warm.atSeconds, warm.atSeconds + window);
    const late = median(last.atSeconds - window, last.atSeconds);
    out(
      `median RSS over ${window.toFixed(0)} s windows: ${(early / MB).toFixed(1)} MB after warm-up, ${(late / MB).toFixed(1)} MB at the end: ` +
        `${(((late - early) / early) * 100).toFixed(1)}%`,
    );
    if (idle) out(`server RSS 15 s after the load stopped: ${(idle.rss / MB).toFixed(1)} MB (load average ${idle.load})`);
    out(
      `RSS samples (MB, every ${RSS_EVERY_MS / 1000} s): ${samples
        .filter((_, index) => index % Math.max(1, Math.round(samples.length / 24)) === 0)
        .map((entry) => `${entry.atSeconds.toFixed(0)}s ${(entry.rss / MB).toFixed(0)}`)
        .join(', ')}`,
    );
  }
  return growth;
}

/** Every failure, by operation and status, with a few samples of what the server said. */
export function printFailures(errorTotal: number): void {
  out();
  if (failures.size === 0) out(`errors: none (target 0): met`);
  else {
    out(`errors: ${errorTotal} (target 0): MISSED`);
    for (const [key, entry] of failures) {
      out(`- ${key}: ${entry.count}`);
      for (const failure of entry.samples) out(`    at ${failure.atSeconds.toFixed(1)} s: ${failure.detail.replace(/\s+/g, ' ')}`);
    }
  }
}
