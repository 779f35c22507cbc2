/**
 * Soak: BENCH_SOAK_SECONDS (default 600) of mixed traffic at a fixed rate, open loop (BENCH_SOAK_RATE operations a
 * second, default 40, sent when due whatever the answers do), from this process to the API in its own process on a
 * fresh database and DATA_DIR: feed pages (REST and GraphQL, genres, radii, points, second pages), mix pages, listens
 * (play, start, heartbeats, pause), saves, follows, Range GETs and covers on /media, graphql-ws subscriptions
 * (mixListenerCount) held open and replaced, and small uploads (create-mix and tus; every other one published).
 * Members are signed up once while seeding, from several loopback addresses so sign-up's per-address limit is not hit.
 *
 * Figures: per operation count, errors, p50 / p99; the server's RSS after warm-up (BENCH_SOAK_WARMUP s, default 60)
 * and at the end. Targets: no errors (any 5xx, network error, timeout, GraphQL error or unexpected status; each is
 * listed with its body and the server's error log lines), RSS growth under 10% after warm-up.
 *
 * The parts are in soak/: settings (the knobs), world (members and mixes, seeded with the tests' upload helpers),
 * operations (the traffic and its weights), load (the open loop and its sampling), subscriptions, http, figures,
 * machine (CPU, memory, the database), api-process (the API and clean-up) and report.
 */
import { availableParallelism } from 'node:os';
import { solidImage } from '../api/test/support/images.js';
import { apiLog, cleanUp, onCleanUp, printServerLog, run, startApi } from './soak/api-process.js';
import { agents, api as origin } from './soak/http.js';
import { runLoad } from './soak/load.js';
import { uploading, WITHOUT } from './soak/operations.js';
import { printFailures, printMemory, printOperations } from './soak/report.js';
import { load1, loads, MEMBERS, RATE, SECONDS, SUBSCRIPTIONS, sleep, TARGET_GROWTH, WARMUP } from './soak/settings.js';
import { closeSubscription, openSubscription, subscriptions } from './soak/subscriptions.js';
import { members, mixes, seed } from './soak/world.js';
import { type BenchDatabase, benchDatabase, MB, mp3Frames, out, rssOf } from './support.js';

async function main(): Promise<void> {
  let database: BenchDatabase | undefined;
  let failed = true;
  try {
    database = await benchDatabase();
    const db = database;
    onCleanUp(() => db.close());
    const api = await startApi(database.url);
    // Runs before the API is stopped: its open sockets would only make it wait.
    onCleanUp(async () => {
      await Promise.all([...subscriptions].map((subscription) => closeSubscription(subscription).catch(() => undefined)));
      for (const agent of agents.values()) agent.destroy();
    });
    out(
      `soak: ${SECONDS} s at ${RATE} operations/s (open loop), ${MEMBERS} members, ${SUBSCRIPTIONS} subscriptions held open, warm-up ${WARMUP} s; ` +
        `API pid ${api.pid} on ${origin.base}; ${availableParallelism()} CPUs, load average ${loads()}`,
    );
    if (WITHOUT.length > 0) out(`left out (BENCH_SOAK_WITHOUT): ${WITHOUT.join(', ')}`);
    const cover = await solidImage('jpeg', 400, 400);
    uploading.cover = cover;
    uploading.mp3 = mp3Frames(10, 64);
    const frames = mp3Frames(20, 128);
    const mixAudio = Buffer.concat(Array.from({ length: 9 }, () => frames)); // 3 minutes
    const seeded = performance.now();
    await seed(cover, mixAudio);
    out(
      `seeded ${members.length} members, ${mixes.length} published mixes of ${(mixAudio.length / MB).toFixed(1)} MB in ${((performance.now() - seeded) / 1000).toFixed(0)} s; load average ${loads()}`,
    );
    for (let index = 0; index < SUBSCRIPTIONS; index += 1) await openSubscription('subscription: connect + subscribe (graphql-ws)');

    const figures = await runLoad(api, database.url);
    // After 15 s with no traffic (subscriptions still open): what the server holds once the work has drained.
    if (!run.interrupted) await sleep(15_000);
    const idle = api.exited ? undefined : { rss: (await rssOf(api.pid)).rss, load: load1() };
    for (const subscription of [...subscriptions]) await closeSubscription(subscription);

    const errorTotal = printOperations(figures);
    const growth = printMemory(figures.samples, idle);
    printFailures(errorTotal);
    await printServerLog(api.logPath);
    failed = errorTotal > 0 || !(growth < TARGET_GROWTH);
  } catch (error) {
    out(`soak failed: ${(error as Error).stack ?? String(error)}`);
    if (apiLog.path) await printServerLog(apiLog.path);
  } finally {
    await cleanUp();
  }
  process.exitCode = run.interrupted ? 130 : failed ? 1 : 0;
}

await main();
