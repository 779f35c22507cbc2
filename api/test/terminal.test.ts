import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.js';
import { migrate, openOrm } from '../src/db/orm.js';
import { DEMO_LOGINS } from '../src/demo-world/plan.js';
import { buildApp } from '../src/http/app.js';
import { createLogger, logFormatFor } from '../src/logger.js';
import { createServices } from '../src/services.js';
import { startBanner } from '../src/start-banner.js';
import { createTestDatabase, dropTestDatabase } from './support/app.js';

/** What a logger wrote, one entry per write (pino writes each record at once). */
function capturedOutput() {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

const startFacts = { url: 'http://localhost:4000', processes: 1, ms: 2345, dataDir: '/srv/mixcrate/data' };

describe('start banner', () => {
  test('names the address and both demo logins', () => {
    const banner = startBanner({ ...startFacts, hasDemoLogins: true });
    expect(banner).toContain('http://localhost:4000');
    for (const login of [DEMO_LOGINS.dj, DEMO_LOGINS.listener]) expect(banner).toContain(`${login.email} / ${login.password}`);
    expect(banner).toContain('embedded PostgreSQL in /srv/mixcrate/data/postgres');
  });

  test('names no logins the database lacks, and no database password', () => {
    const banner = startBanner({
      ...startFacts,
      hasDemoLogins: false,
      databaseUrl: 'postgres://mixcrate:s3cret@db.internal:5432/mixcrate',
    });
    expect(banner).not.toContain(DEMO_LOGINS.dj.email);
    expect(banner).toContain('postgres://mixcrate@db.internal:5432/mixcrate');
    expect(banner).not.toContain('s3cret');
  });
});

describe('log format', () => {
  test('production logs JSON even on a terminal', () => {
    const format = logFormatFor(true, true);
    const output = capturedOutput();
    createLogger('info', format, output).info({ mixes: 3 }, 'ready');
    expect(output.lines).toHaveLength(1);
    expect(JSON.parse(output.lines[0] ?? '')).toMatchObject({ level: 30, mixes: 3, msg: 'ready' });
  });

  test('development logs JSON into a pipe and text onto a terminal', () => {
    expect(logFormatFor(false, false)).toBe('json');
    expect(logFormatFor(false, true)).toBe('text');
    const output = capturedOutput();
    createLogger('info', 'text', output).info({ mixes: 3 }, 'ready');
    expect(output.lines.join('')).toMatch(/INFO.*ready/);
    expect(() => JSON.parse(output.lines[0] ?? '')).toThrow();
  });
});

describe('request log', () => {
  const output = capturedOutput();
  let databaseUrl: string;
  let dataDir: string;
  let close: () => Promise<void>;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-terminal-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
    const orm = await openOrm(databaseUrl);
    await migrate(orm);
    const log = createLogger('info', 'json', output);
    const services = await createServices(config, orm, log);
    app = await buildApp(services, { logger: log });
    await app.ready();
    close = async () => {
      await app.close();
      await services.close();
      await orm.close();
    };
  });

  afterAll(async () => {
    await close?.();
    await dropTestDatabase(databaseUrl);
    await rm(dataDir, { recursive: true, force: true });
  });

  test('is one line per request, with its method, path, status and time', async () => {
    output.lines.length = 0;
    const response = await app.inject({ method: 'POST', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    const records = output.lines.map((line) => JSON.parse(line));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      msg: expect.stringMatching(/^POST \/api\/nothing-here 404 [\d.]+ ms$/),
      request: { method: 'POST', url: '/api/nothing-here', status: 404, ms: expect.any(Number) },
    });
  });
});
