/**
 * The API as its own process for the media benchmarks, so its memory can be read from /proc without the load
 * generator's. Reads BENCH_MEDIA_DATABASE_URL and BENCH_MEDIA_DATA_DIR, listens on a free loopback port, prints
 * `{"port": n}` on its first stdout line, and stops on SIGTERM.
 */
import pino from 'pino';
import { loadConfig } from '../api/src/config.js';
import { startServer } from '../api/src/server.js';

const config = loadConfig({
  NODE_ENV: 'production',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  DATABASE_URL: process.env.BENCH_MEDIA_DATABASE_URL,
  DATA_DIR: process.env.BENCH_MEDIA_DATA_DIR,
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'silent',
});
const server = await startServer(config, pino({ level: 'silent' }));
process.stdout.write(`${JSON.stringify({ port: Number(new URL(server.url).port) })}\n`);
process.on('SIGTERM', () => {
  server.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
