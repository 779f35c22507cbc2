import { isAbsolute, resolve } from 'node:path';
import { compile } from '@fastify/proxy-addr';
import { z } from 'zod';
import { BETA_CODE, normaliseBetaCode } from './shared/rules.js';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .refine((v) => URL.canParse(v) && protocols.includes(new URL(v).protocol), {
      message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    })
    .optional();
const isOrigin = (value: string) =>
  URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol) && new URL(value).origin === value;
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const flag = (fallback: boolean) =>
  z
    .enum(['0', '1', 'true', 'false'])
    .default(fallback ? '1' : '0')
    .transform((v) => v === '1' || v === 'true');
/** A flag whose default depends on NODE_ENV (decided in loadConfig): undefined when not set. */
const optionalFlag = () =>
  z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === '1' || v === 'true'));

/** Which X-Forwarded-For hops to believe: none, the last `n` (a count of proxies in front), or those from these proxies. */
export type ProxyTrust = false | number | string[];
const MAX_PROXY_HOPS = 10;
const proxyTrust = z
  .string()
  .default('0')
  .transform((value, ctx): ProxyTrust => {
    const setting = value.trim().toLowerCase();
    if (setting === '0' || setting === 'false') return false;
    if (setting === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          'true would believe every X-Forwarded-For hop, so any client could name any address; give the number of proxies in front (1) or their addresses',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(setting)) {
      const hops = Number(setting);
      if (hops <= MAX_PROXY_HOPS) return hops;
      ctx.addIssue({ code: 'custom', message: `a hop count must be at most ${MAX_PROXY_HOPS}` });
      return z.NEVER;
    }
    const proxies = setting.split(',').map((entry) => entry.trim());
    for (const proxy of proxies) {
      try {
        compile(proxy);
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: `${proxy || '(empty)'} is not an IP address, a range (10.0.0.0/8) or loopback, linklocal, uniquelocal`,
        });
        return z.NEVER;
      }
    }
    return proxies;
  });

/** The word that turns publishing codes off (an empty BETA_CODES does too). */
export const NO_BETA_CODES = 'none';
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
/** A length of time written as 30d, 12h or 3600s, in milliseconds. */
const duration = (fallback: string) =>
  z
    .string()
    .regex(/^\d+[smhdw]$/, 'must look like 30d, 12h or 3600s')
    .default(fallback)
    .transform((v) => Number(v.slice(0, -1)) * UNIT_MS[v.slice(-1) as keyof typeof UNIT_MS]);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  EMBEDDED_PG_PORT: port(54329),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // The longest a sign-in lasts; within it, a session unused for SESSION_IDLE_TTL ends.
  JWT_TTL: duration('30d'),
  SESSION_IDLE_TTL: duration('14d'),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z.string().min(3).default('mixcrate <no-reply@mixcrate.local>'),
  BETA_CODES: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const codes = value.split(',').map(normaliseBetaCode).filter(Boolean);
      if (codes.includes(NO_BETA_CODES) && codes.length > 1) {
        ctx.addIssue({ code: 'custom', message: `${NO_BETA_CODES} turns codes off and cannot stand beside codes` });
        return z.NEVER;
      }
      return codes.filter((code) => code !== NO_BETA_CODES);
    }),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  TRUST_PROXY: proxyTrust,
  // Which other sites' pages may call the API from the browser: * (any) or a comma-separated list of origins.
  CORS_ORIGINS: z
    .string()
    .default('*')
    .refine((value) => value.trim() === '*' || value.split(',').every((entry) => isOrigin(entry.trim())), {
      message: 'must be * or a comma-separated list of origins such as https://example.com',
    }),
  // Strict-Transport-Security on every answer: only for a site people reach over HTTPS, since browsers remember it for a year.
  HSTS: flag(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(8),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(10).default(2000),
  // Queries run as compiled code (graphql-jit); 0 runs every operation on graphql-js, as the bench's comparison does.
  GRAPHQL_COMPILED_EXECUTION: flag(true),
  // The public API's budgets per client (member or address) and window; see README "Rate limits".
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  RATE_LIMIT_REQUESTS: z.coerce.number().int().min(1).default(1200),
  RATE_LIMIT_GRAPHQL_COST: z.coerce.number().int().min(10).default(300_000),
  // Ranges of local media files whose pages are in memory go from the file to the socket with sendfile(2) (Linux).
  MEDIA_ZERO_COPY: flag(true),
  GCS_BUCKET: z.string().min(3).optional(),
  GCS_API_ENDPOINT: optionalUrl(['http:', 'https:']),
  GCS_PROJECT_ID: z.string().min(1).optional(),
  UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  REQUEST_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  REQUEST_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(256),
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  // Unset: on outside production (the demo world on a first start), off under NODE_ENV=production.
  DEMO: optionalFlag(),
  // What one member may hold unpublished: drafts (each up to 300 MB), and bytes in unfinished resumable uploads.
  MAX_DRAFTS_PER_MEMBER: z.coerce.number().int().min(1).max(1000).default(10),
  MAX_OPEN_UPLOADS_GB: z.coerce.number().positive().max(1000).default(2),
  // Drafts nobody touched (edited, or its tracklist set) for this many days are removed with their files.
  DRAFT_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(14),
  WAVEFORM_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(3),
  WAVEFORM_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).default(30),
  // Payments: Stripe when a secret key is set; otherwise the local test-mode checkout, which a production server runs
  // only when PAYMENTS_TEST_MODE=1 says so (without either, checkout and billing answer 503).
  PAYMENTS_TEST_MODE: optionalFlag(),
  STRIPE_SECRET_KEY: z.string().min(8).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(8).optional(),
  // Where the Stripe SDK sends its requests (default Stripe's own API): a stand-in such as stripe-mock, or a test's.
  STRIPE_API_URL: optionalUrl(['http:', 'https:']),
  SUBSCRIPTION_PRICE_CENTS: z.coerce.number().int().min(50).max(100_000).default(999),
  SUBSCRIPTION_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  // The smallest balance a monthly payout run pays a creator; smaller balances wait for a later month.
  PAYOUT_MINIMUM_CENTS: z.coerce.number().int().min(0).max(100_000_000).default(1000),
  PAYMENTS_SWEEP_SECONDS: z.coerce.number().int().min(10).max(86_400).default(3600),
  RECOGNITION_REFRESH_LIMIT: z.coerce.number().int().min(0).max(1000).default(10),
  RECOGNITION_REFERENCE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31)
    .default(200 * 1024 * 1024),
  // A listen stops counting as "listening now" this long after its player's last heartbeat (tests shorten it).
  LISTEN_EXPIRY_MS: z.coerce.number().int().min(200).max(3_600_000).default(60_000),
});

export type Env = z.infer<typeof envSchema>;
/** The name of every environment variable the server reads. */
export const ENV_VARIABLES = Object.keys(envSchema.shape);

export interface Config extends Omit<Env, 'BETA_CODES' | 'PUBLIC_URL' | 'CORS_ORIGINS' | 'DEMO' | 'PAYMENTS_TEST_MODE'> {
  /** Whether the local test-mode checkout may stand in for Stripe: by default everywhere but production. */
  PAYMENTS_TEST_MODE: boolean;
  /** Any origin, or only these (see shared/origins.ts). */
  CORS_ORIGINS: '*' | string[];
  DATA_DIR: string;
  PUBLIC_URL: string;
  /** The codes that publish a mix for free; none with BETA_CODES=none or empty, and by default in production. */
  BETA_CODES: string[];
  DEMO: boolean;
  isProduction: boolean;
}

export class ConfigError extends Error {}

/** Parses and validates every environment variable the server reads; throws one readable message listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, baseDir = env.INIT_CWD ?? process.cwd()): Config {
  // An empty variable (FOO=) means "use the default", as in most twelve-factor tools; an empty BETA_CODES means no codes,
  // so a list emptied in a deployment's settings never brings back the development code.
  const parsed = envSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([name, value]) => value !== '' || name === 'BETA_CODES')),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  const isProduction = values.NODE_ENV === 'production';
  if (isProduction && !values.JWT_SECRET) {
    throw new ConfigError('Invalid configuration:\n  JWT_SECRET: required when NODE_ENV=production');
  }
  return {
    ...values,
    DATA_DIR: isAbsolute(values.DATA_DIR) ? values.DATA_DIR : resolve(baseDir, values.DATA_DIR),
    PUBLIC_URL: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
    BETA_CODES: values.BETA_CODES ?? (isProduction ? [] : [BETA_CODE.default]),
    DEMO: values.DEMO ?? !isProduction,
    CORS_ORIGINS: values.CORS_ORIGINS.trim() === '*' ? '*' : values.CORS_ORIGINS.split(',').map((origin) => origin.trim()),
    PAYMENTS_TEST_MODE: values.PAYMENTS_TEST_MODE ?? !isProduction,
    isProduction,
  };
}
