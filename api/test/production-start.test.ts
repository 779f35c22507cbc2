import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_LOGINS, DEMO_PASSWORD } from '../src/demo-world/plan.js';
import { createTestDatabase, dropTestDatabase } from './support/app.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';

/**
 * Issue 26: the server started as an operator would put it online, `NODE_ENV=production` and a `JWT_SECRET` (and the
 * database it must be given), nothing else. No demo world, and no secret in what it logs: not the signing key, not the
 * demo password, not a reset link's token, neither from the mail nor from the page view of the link.
 */

const JWT_SECRET = randomBytes(32).toString('hex');
const PASSWORD = `Prod_${randomBytes(6).toString('hex')}1!`;
/** Only what an operator sets: every default the test harness would give the process is taken away. */
const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET,
  DEMO: undefined,
  LOG_LEVEL: undefined,
  WEB_CONCURRENCY: undefined,
  REDIS_URL: undefined,
  BETA_CODES: undefined,
  TRUST_PROXY: undefined,
};

let databaseUrl: string;
let dataDir: string;
let server: ServerProcess | undefined;
beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-production-'));
});
afterAll(async () => {
  await server?.stop();
  await dropTestDatabase(databaseUrl);
  await rm(dataDir, { recursive: true, force: true });
});

const members = async () => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ email: string }>('select email from app_user')).rows.map((row) => row.email);
  } finally {
    await client.end();
  }
};

const post = (path: string, body: unknown) =>
  fetch(`${server?.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The secrets a log must never hold, and where one was found. */
const leaks = (output: string[], secrets: string[]) =>
  secrets.flatMap((secret) => output.filter((line) => line.includes(secret)).map((line) => `${secret}: ${line.slice(0, 300)}`));

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

/** Waits until the process logged a line holding `text` (its request lines come once the answer has gone). */
async function logged(text: string): Promise<void> {
  for (let waited = 0; waited < 5_000; waited += 50) {
    if (server?.output.some((line) => line.includes(text))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never logged ${text}`);
}

test('a production start with only JWT_SECRET builds no demo world and logs no secret', async () => {
  server = await startServerProcess({ databaseUrl, dataDir, env: PRODUCTION });
  const ready = server.records.find((record) => record.msg === 'mixcrate is ready') as { buildsDemoWorld?: boolean } | undefined;
  expect(ready?.buildsDemoWorld).toBe(false);

  // A member asks for a reset link: there is no SMTP_URL, so it goes to the outbox.
  const email = `prod-${randomBytes(3).toString('hex')}@example.com`;
  expect((await post('/api/user/create-user', { email, password: PASSWORD, has_opted_in: false })).status).toBe(201);
  expect((await post('/api/user/reset-password', { email })).status).toBe(200);
  await logged('mail written to the outbox');
  const outbox = join(dataDir, 'outbox');
  const [file] = await readdir(outbox);
  expect(await modeOf(outbox)).toBe(0o700);
  expect(await modeOf(join(outbox, file))).toBe(0o600);
  // The link as the mail carries it (quoted-printable: soft line breaks, "=" written =3D).
  const mail = (await readFile(join(outbox, file), 'utf8')).replace(/=\r?\n/g, '').replaceAll('=3D', '=');
  const link = /https?:\/\/\S+\/signin\/password-reset\?\S+/.exec(mail)?.[0] ?? '';
  const token = new URL(link).searchParams.get('token') ?? '';
  expect(token.length).toBeGreaterThan(20);

  // The member opens the link: the page view is logged, its token is not.
  const opened = await fetch(`${server.url}${new URL(link).pathname}${new URL(link).search}`);
  await opened.arrayBuffer();
  await logged('/signin/password-reset?');
  expect(server.output.some((line) => line.includes('/signin/password-reset?email=[redacted]&token=[redacted]'))).toBe(true);

  // Whatever a first start would have built meanwhile: nobody but the member.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(await members()).toEqual([email]);
  expect(server.output.filter((line) => /demo world/i.test(line))).toEqual([]);
  expect(leaks(server.output, [JWT_SECRET, DEMO_PASSWORD, PASSWORD, token, encodeURIComponent(token)])).toEqual([]);
  await server.stop();
  server = undefined;
}, 60_000);

test('a production start on a database holding the demo logins names them without their password', async () => {
  // As a start with DEMO=1 would have left them (only the address matters to the start).
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`update app_user set email = $1`, [DEMO_LOGINS.dj.email]);
  await client.end();
  server = await startServerProcess({ databaseUrl, dataDir, env: PRODUCTION });
  const named = server.records.find((record) => record.msg === 'demo logins') as { dj?: string } | undefined;
  expect(named?.dj).toBe(DEMO_LOGINS.dj.email);
  expect(leaks(server.output, [JWT_SECRET, DEMO_PASSWORD])).toEqual([]);
}, 60_000);
