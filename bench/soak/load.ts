import { loadavg } from 'node:os';
import { MB, out, rssOf } from '../support.js';
import { type Api, run } from './api-process.js';
import { clock, elapsedSeconds, fail, stats, WEDGED_SECONDS } from './figures.js';
import { cpuPressure, cpuSeconds, databaseSnapshot, type Sample } from './machine.js';
import { chooseOperation, uploading } from './operations.js';
import type { LoadFigures } from './report.js';
import { load1, loads, RATE, REQUEST_TIMEOUT_MS, RSS_EVERY_MS, SECONDS, sleep } from './settings.js';
import { pushed, subscriptions } from './subscriptions.js';
import { mixes } from './world.js';

/**
 * The load: one operation every 1/RATE s from the start, each sent when due (open loop), none waited for, for SECONDS
 * (or until Ctrl-C, or the API exits or stops answering); the server's memory, the machine's load and, when requests
 * pile up, the database's state sampled meanwhile.
 */
export async function runLoad(api: Api, databaseUrl: string): Promise<LoadFigures> {
  const samples: Sample[] = [];
  const stalls: string[] = [];
  const requests = new Set<Promise<void>>();
  const lags: number[] = [];
  clock.loadStartedAt = performance.now();
  run.loading = true;
  const cpuAtStart = cpuSeconds(api.pid);
  const sample = async () => {
    if (api.exited) return;
    const { rss } = await rssOf(api.pid);
    samples.push({ atSeconds: elapsedSeconds(), rss, load: loadavg()[0], cpuPressure: cpuPressure() });
    if (requests.size > RATE * 3 && stalls.length < 6) {
      const inFlight = requests.size;
      const at = elapsedSeconds();
      const snapshot = await databaseSnapshot(databaseUrl).catch((error) => `(no snapshot: ${(error as Error).message})`);
      stalls.push(
        `at ${at.toFixed(0)} s, ${inFlight} operations in flight, server CPU ${(((cpuSeconds(api.pid) - cpuAtStart) / at) * 100).toFixed(0)}% of a core so far, load average ${load1()}, CPU pressure ${cpuPressure()}%: ${snapshot}`,
      );
    }
  };
  await sample();
  const sampler = setInterval(() => void sample().catch(() => undefined), RSS_EVERY_MS);
  const progressEvery = Math.max(10, Math.round(SECONDS / 10));
  let nextProgress = progressEvery;
  const endAt = clock.loadStartedAt + SECONDS * 1000;
  let sent = 0;
  let sendingSeconds = 0;
  try {
    for (;;) {
      const due = clock.loadStartedAt + (sent * 1000) / RATE;
      if (due >= endAt || run.interrupted) break;
      if (api.exited) {
        fail('API process', 'exited', `the API exited during the run; see the log below`);
        break;
      }
      if (performance.now() - Math.max(clock.lastAnswerAt, clock.loadStartedAt) > WEDGED_SECONDS * 1000) {
        fail(
          'API process',
          'wedged',
          `no operation but /media succeeded for ${WEDGED_SECONDS} s: the load stops (see the database snapshots)`,
        );
        break;
      }
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      lags.push(Math.max(0, performance.now() - due));
      const running: Promise<void> = chooseOperation()()
        .catch((error) => fail('bench', 'exception', (error as Error).stack ?? String(error)))
        .finally(() => requests.delete(running));
      requests.add(running);
      sent += 1;
      if (elapsedSeconds() >= nextProgress) {
        nextProgress += progressEvery;
        const errors = [...stats.values()].reduce((sum, entry) => sum + entry.errors, 0);
        const last = samples.at(-1);
        out(
          `  [${elapsedSeconds().toFixed(0).padStart(4)} s] ${sent} operations, ${requests.size} in flight, ${errors} errors, ` +
            `RSS ${last ? (last.rss / MB).toFixed(1) : '?'} MB, ${subscriptions.length} subscriptions, ${pushed.count} pushes; load average ${loads()}`,
        );
      }
    }
    sendingSeconds = elapsedSeconds();
    await Promise.race([Promise.allSettled([...requests]), sleep(REQUEST_TIMEOUT_MS + 5000)]);
  } finally {
    clearInterval(sampler);
  }
  run.loading = false;
  const loadSeconds = elapsedSeconds();
  await sample().catch(() => undefined);
  const cpuUsed = api.exited ? Number.NaN : cpuSeconds(api.pid) - cpuAtStart;
  const loadAtEnd = loads();
  return {
    loadSeconds,
    loadAtEnd,
    sent,
    sendingSeconds,
    lags,
    pushes: pushed.count,
    uploads: uploading.count,
    publishedMixes: mixes.length,
    cpuUsed,
    samples,
    stalls,
  };
}
