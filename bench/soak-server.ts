/**
 * The API as its own process for the soak bench: like media-server.ts, but its warnings and errors (pino JSON, one a
 * line) go to stderr so the bench can keep them beside the failures it saw, and it stops when its stdin closes (the
 * bench died without stopping it) as well as on SIGTERM. Reads BENCH_SOAK_DATABASE_URL, BENCH_SOAK_DATA_DIR and
 * BENCH_SOAK_LOG_LEVEL (default warn); prints `{"port": n}` on its first stdout line.
 */
import pino, { type LevelWithSilent } from 'pino';
import { loadConfig } from '../api/src/config.js';
import { startServer } from '../api/src/server.js';

const level = (process.env.BENCH_SOAK_LOG_LEVEL ?? 'warn') as LevelWithSilent;
const config = loadConfig({
  NODE_ENV: 'production',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  DATABASE_URL: process.env.BENCH_SOAK_DATABASE_URL,
  DATA_DIR: process.env.BENCH_SOAK_DATA_DIR,
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: level,
  DEMO: '0',
});
const log = pino({ level }, pino.destination(2));
const server = await startServer(config, log);
process.stdout.write(`${JSON.stringify({ port: Number(new URL(server.url).port) })}\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  server.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
// Ctrl-C reaches the whole process group: the bench stops this process itself, after its last RSS sample.
process.on('SIGINT', () => undefined);
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
