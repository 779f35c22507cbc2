/**
 * The API as its own process for the realtime bench, so its memory is its own to read from /proc. Reads
 * BENCH_REALTIME_DATABASE_URL, BENCH_REALTIME_DATA_DIR, BENCH_REALTIME_JWT_SECRET and BENCH_REALTIME_REDIS_URL (events
 * through Redis when set, else PostgreSQL LISTEN/NOTIFY); no cap on connections or GraphQL cost per address (every
 * bench socket comes from 127.0.0.1). Prints `{"port": n}` on its first stdout line and stops on SIGTERM.
 */
import pino from 'pino';
import { loadConfig } from '../api/src/config.js';
import { startServer } from '../api/src/server.js';

const config = loadConfig({
  NODE_ENV: 'production',
  JWT_SECRET: process.env.BENCH_REALTIME_JWT_SECRET,
  DATABASE_URL: process.env.BENCH_REALTIME_DATABASE_URL,
  DATA_DIR: process.env.BENCH_REALTIME_DATA_DIR,
  REDIS_URL: process.env.BENCH_REALTIME_REDIS_URL ?? '',
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'warn',
  DEMO: '0',
  MAX_CONNECTIONS_PER_ADDRESS: '0',
  // Every bench socket subscribes from 127.0.0.1: 19,000 subscriptions in a minute are the bench, not one greedy client.
  RATE_LIMIT_GRAPHQL_COST: String(Number.MAX_SAFE_INTEGER),
  // Tens of thousands of sockets opening at once on a loaded machine: a slow upgrade request is the bench, not an attack.
  REQUEST_HEADERS_TIMEOUT_MS: '120000',
});
const server = await startServer(config, pino({ level: 'warn' }, pino.destination(2)));
process.stdout.write(`${JSON.stringify({ port: Number(new URL(server.url).port) })}\n`);
process.on('SIGTERM', () => {
  server.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
