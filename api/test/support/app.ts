import { randomBytes, randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { type Config, loadConfig } from '../../src/config.js';
import { migrate, openOrm } from '../../src/db/orm.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type Services } from '../../src/services.js';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  config: Config;
  databaseUrl: string;
  close(): Promise<void>;
}

/** A database of its own for one test file, so files run in parallel. */
export async function createTestDatabase(): Promise<string> {
  const baseUrl = new URL(inject('postgresUrl'));
  const name = `mixcrate_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: baseUrl.toString() });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  baseUrl.pathname = `/${name}`;
  return baseUrl.toString();
}

export async function dropTestDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  target.pathname = '/postgres';
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
}

/** The whole app (migrations applied, real PostgreSQL, a temporary DATA_DIR) without listening on a port. */
export async function createTestApp(
  env: Record<string, string> = {},
  shared?: { databaseUrl: string },
  webRoot?: string,
): Promise<TestApp> {
  const databaseUrl = shared?.databaseUrl ?? (await createTestDatabase());
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-test-data-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...env });
  const orm = await openOrm(databaseUrl);
  await migrate(orm);
  const log = (await import('pino')).default({ level: 'silent' });
  const services = await createServices(config, orm, log);
  const app = await buildApp(services, { webRoot });
  await app.ready();
  return {
    app,
    services,
    config,
    databaseUrl,
    async close() {
      await app.close();
      await services.close();
      await orm.close();
      if (!shared) await dropTestDatabase(databaseUrl);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

// Started at random: with Redis the limits' counts outlive a run (for their window), so runs must not reuse addresses.
let addressCounter = randomInt(1, 2 ** 23);
/** A fresh client address per call, so per-IP rate limits only bite tests that aim at them. */
export const freshIp = () => `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter++ & 255}`;

export const STRONG_PASSWORD = 'Mixcrate1!';

export interface GraphQLResult<T = Record<string, unknown>> {
  status: number;
  data?: T;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string; status?: number } }[];
}

export async function gql<T = Record<string, unknown>>(
  app: FastifyInstance,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
  extra: Partial<InjectOptions> = {},
): Promise<GraphQLResult<T>> {
  const response = await app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: { query, variables },
    remoteAddress: freshIp(),
    ...extra,
  });
  return { status: response.statusCode, ...response.json() };
}

export interface Member {
  id: string;
  token: string;
  email: string;
  userName: string;
}

let memberCounter = 0;
/** Signs a member up through REST and walks the sign-up steps (user name, location, user type). */
export async function signUpMember(
  app: FastifyInstance,
  options: { userName?: string; latitude?: number; longitude?: number; userType?: string } = {},
): Promise<Member> {
  memberCounter += 1;
  const suffix = `${memberCounter}${randomBytes(3).toString('hex')}`;
  const email = `member${suffix}@example.com`;
  const userName = options.userName ?? `member_${suffix}`;
  const created = await app.inject({
    method: 'POST',
    url: '/api/user/create-user',
    payload: { email, password: STRONG_PASSWORD, has_opted_in: false },
    remoteAddress: freshIp(),
  });
  if (created.statusCode !== 201) throw new Error(`sign-up failed: ${created.body}`);
  const token = created.json().token as string;
  const headers = { 'x-auth-token': token };
  await app.inject({ method: 'PATCH', url: '/api/user/add-username', headers, payload: { user_name: userName } });
  if (options.latitude !== undefined && options.longitude !== undefined) {
    await app.inject({
      method: 'PATCH',
      url: '/api/user/update-location',
      headers,
      payload: { location: { latitude: options.latitude, longitude: options.longitude } },
    });
  }
  if (options.userType)
    await app.inject({ method: 'PATCH', url: '/api/user/add-user-type', headers, payload: { user_type: options.userType } });
  const me = await app.inject({ method: 'GET', url: '/api/user/logged-in-user', headers });
  return { id: me.json()._id, token, email, userName };
}
