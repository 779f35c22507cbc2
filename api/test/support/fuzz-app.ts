import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { migrate, openOrm } from '../../src/db/orm.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type Services } from '../../src/services.js';
import { createTestDatabase, dropTestDatabase } from './app.js';

export interface FuzzApp {
  app: FastifyInstance;
  services: Services;
  databaseUrl: string;
  /** The errors the server logged since the last call, so a 5xx can be reported with its cause. */
  takeServerErrors(): string[];
  close(): Promise<void>;
}

/** The whole app as `createTestApp` builds it, but logging its errors where the walker can read them. */
export async function createFuzzApp(): Promise<FuzzApp> {
  const databaseUrl = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-fuzz-data-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const orm = await openOrm(databaseUrl);
  await migrate(orm);
  let errors: string[] = [];
  const logger = pino(
    { level: 'error' },
    {
      write: (line: string) => {
        const entry = JSON.parse(line) as { msg?: string; err?: { type?: string; message?: string; stack?: string } };
        const where = entry.err?.stack?.split('\n').find((frame) => frame.includes('/src/'));
        errors.push(`${entry.err?.type ?? 'Error'}: ${entry.err?.message ?? entry.msg}${where ? ` (${where.trim()})` : ''}`);
      },
    },
  );
  const services = await createServices(config, orm, pino({ level: 'silent' }));
  const app = await buildApp(services, { logger });
  await app.ready();
  return {
    app,
    services,
    databaseUrl,
    takeServerErrors() {
      const taken = errors;
      errors = [];
      return taken;
    },
    async close() {
      await app.close();
      await services.close();
      await orm.close();
      await dropTestDatabase(databaseUrl);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type Method = (typeof METHODS)[number];
const isMethod = (name: string): name is Method => (METHODS as readonly string[]).includes(name);

export interface Route {
  method: Method;
  url: string;
}

/**
 * Every route the app serves, read from Fastify's own route tree, so a route added tomorrow is walked without editing
 * the walker. HEAD is left out where GET answers (Fastify derives it); OPTIONS only where a handler is written for it.
 */
export function routesOf(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^(.*?)[├└]── (\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const [, indent, segment, methodList] = match;
    const depth = indent.length / 4;
    const url = (prefixes[depth - 1] ?? '') + segment;
    prefixes[depth] = url;
    const methods = methodList.split(', ').filter(isMethod);
    for (const method of methods) {
      if (method === 'HEAD' && methods.includes('GET')) continue;
      routes.push({ method, url });
    }
  }
  return routes;
}

export interface DatabaseProbe {
  /** Each table's row count, or its row count and a checksum of its rows, to prove a pass of requests changed nothing. */
  state(what: 'rows' | 'checksums'): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export async function probeDatabase(databaseUrl: string): Promise<DatabaseProbe> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const tables = await client.query<{ name: string }>(
    // The search index's tables (search_*) are derived from the others, written by the indexer as it drains its queue,
    // in its own time: a change there follows a change of data, which the other tables show.
    `select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'search\\_%' order by 1`,
  );
  const statement = (summary: string) =>
    tables.rows
      .map(({ name }) => `select '${name}' as name, (select ${summary} from (select t::text as row_text from "${name}" t) r) as summary`)
      .join(' union all ');
  const statements = {
    rows: statement('count(*)::text'),
    checksums: statement(`count(*) || ' ' || coalesce(md5(string_agg(row_text, '|' order by row_text)), '')`),
  };
  return {
    async state(what) {
      const result = await client.query<{ name: string; summary: string }>(statements[what]);
      return Object.fromEntries(result.rows.map((row) => [row.name, row.summary]));
    },
    close: () => client.end(),
  };
}
