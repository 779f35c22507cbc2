/**
 * The API as its own process for the media benchmarks, so its memory can be read from /proc without the load
 * generator's. Reads BENCH_MEDIA_DATABASE_URL, BENCH_MEDIA_DATA_DIR and BENCH_MEDIA_PROCESSES (a cluster when > 1,
 * as WEB_CONCURRENCY makes one), listens on a free loopback port, prints `{"port": n}` on its first stdout line, and
 * stops on SIGTERM.
 */
import cluster from 'node:cluster';
import pino from 'pino';
import { runCluster } from '../api/src/cluster.js';
import { loadConfig } from '../api/src/config.js';
import { prepareDatabase, startServer } from '../api/src/server.js';

const config = loadConfig({
  NODE_ENV: 'production',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  DATABASE_URL: process.env.BENCH_MEDIA_DATABASE_URL,
  DATA_DIR: process.env.BENCH_MEDIA_DATA_DIR,
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'silent',
  DEMO: '0',
  MEDIA_ZERO_COPY: process.env.MEDIA_ZERO_COPY,
});
const log = pino({ level: 'silent' });
const processes = Number(process.env.BENCH_MEDIA_PROCESSES ?? 1);
const server =
  cluster.isPrimary && processes > 1
    ? await runCluster(processes, await prepareDatabase(config, log), log)
    : await startServer(config, log);
if (cluster.isPrimary) process.stdout.write(`${JSON.stringify({ port: Number(new URL(server.url).port) })}\n`);
process.on('SIGTERM', () => {
  server.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
