import { loadavg } from 'node:os';
import { Random } from '../../api/src/shared/random.js';

/** The soak's knobs (environment variables, with their defaults), and what every part of it uses. */

const env = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
export const SECONDS = env('BENCH_SOAK_SECONDS', 600);
export const RATE = env('BENCH_SOAK_RATE', 40);
export const WARMUP = env('BENCH_SOAK_WARMUP', Math.min(60, Math.round(SECONDS / 4)));
export const MEMBERS = Math.max(4, env('BENCH_SOAK_MEMBERS', 24));
export const CREATORS = Math.min(MEMBERS, 8);
export const MIXES_PER_CREATOR = 2;
export const SUBSCRIPTIONS = env('BENCH_SOAK_SUBSCRIPTIONS', 30);
export const RSS_EVERY_MS = 5000;
export const REQUEST_TIMEOUT_MS = 30_000;
/** Sign-up allows 10 an hour per address: members sign up (and then send their traffic) from 127.0.0.1, .2, ... */
export const MEMBERS_PER_ADDRESS = 8;
export const RANGE_BYTES = 64 * 1024;
export const TARGET_GROWTH = 0.1;
export const PASSWORD = 'Mixcrate1!';
export const GENRES = ['house', 'techno', 'deep_house', 'garage'];

// Seeded, so two runs send the same mix of operations.
const generator = new Random(env('BENCH_SOAK_SEED', 14));
export const random = () => generator.next();
export const pick = <T>(list: readonly T[]): T => generator.pick(list);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const load1 = () => loadavg()[0].toFixed(2);
export const loads = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
