import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.js';
import { migrate, openOrm } from '../src/db/orm.js';
import { DEMO_PASSWORD, demoLoginsToLog } from '../src/demo-world/plan.js';
import { buildApp } from '../src/http/app.js';
import { createLogger, loggableUrl } from '../src/logger.js';
import { Mailer } from '../src/modules/mail/mailer.js';
import { passwordResetMail } from '../src/modules/mail/templates.js';
import { createServices } from '../src/services.js';
import { createTestApp, createTestDatabase, dropTestDatabase, signUpMember, type TestApp } from './support/app.js';
import { draftMix, typedTracks } from './support/mixes.js';

/** Issue 26: production defaults (the demo world's logins, publishing codes) and secrets kept out of logs. */

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('publishing codes', () => {
  for (const setting of ['none', '']) {
    test(`BETA_CODES=${setting === '' ? ' (empty)' : setting}: no code publishes, neither the development one nor the word itself`, async () => {
      const app = await createTestApp({ BETA_CODES: setting });
      try {
        const dj = await signUpMember(app.app);
        const headers = { 'x-auth-token': dj.token };
        const id = await draftMix(app.services, dj);
        await app.app.inject({ method: 'POST', url: '/api/mix/update-mix', headers, payload: { mix_id: id, tracks: typedTracks(5) } });
        for (const code of ['free-mix', 'none']) {
          const answer = await app.app.inject({ method: 'POST', url: '/api/mix/publish-mix', headers, payload: { mix_id: id, code } });
          expect(answer.statusCode, code).toBe(400);
        }
      } finally {
        await app.close();
      }
    });
  }
});

describe('the demo world under production', () => {
  test('its logins are logged without their password', () => {
    expect(JSON.stringify(demoLoginsToLog(true))).not.toContain(DEMO_PASSWORD);
    expect(demoLoginsToLog(true)).toEqual({ dj: 'dj@demo.mixcrate.app', listener: 'listener@demo.mixcrate.app' });
    expect(demoLoginsToLog(false).dj).toBe(`dj@demo.mixcrate.app / ${DEMO_PASSWORD}`);
  });
});

describe('the outbox', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mixcrate-outbox-test-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const mailTo = async (outbox: string, logsBodies: boolean) => {
    const logged: Record<string, unknown>[] = [];
    const mailer = new Mailer(
      undefined,
      'mixcrate <no-reply@example.com>',
      outbox,
      { info: (fields: object) => logged.push({ ...fields }) },
      { logsBodies },
    );
    try {
      await mailer.send(passwordResetMail('someone@example.com', 'https://mixcrate.example/signin/password-reset?token=SECRET-TOKEN'));
    } finally {
      mailer.close();
    }
    return logged;
  };

  test('mails are files only the server may read, in a folder only it may open, even one made readable before', async () => {
    const outbox = join(folder, 'outbox');
    await mkdir(outbox, { mode: 0o755 });
    await mailTo(outbox, false);
    expect(await modeOf(outbox)).toBe(0o700);
    const [file] = await readdir(outbox);
    expect(await modeOf(join(outbox, file))).toBe(0o600);
    const fresh = join(folder, 'fresh', 'outbox');
    await mailTo(fresh, false);
    expect(await modeOf(fresh)).toBe(0o700);
  });

  test('a mail body (with its reset link) is logged while developing, never under production', async () => {
    const production = await mailTo(join(folder, 'production'), false);
    expect(production).toHaveLength(1);
    expect(production[0]).toMatchObject({ to: 'someone@example.com', subject: 'Reset your mixcrate password' });
    expect(JSON.stringify(production)).not.toContain('SECRET-TOKEN');
    expect(JSON.stringify(await mailTo(join(folder, 'development'), true))).toContain('SECRET-TOKEN');
  });
});

describe('request logs', () => {
  test('secret query parameters are redacted by their decoded name; the rest stays', () => {
    expect(loggableUrl('/signin/password-reset?email=a%40b.example&token=abc&next=%2Fhome')).toBe(
      '/signin/password-reset?email=[redacted]&token=[redacted]&next=%2Fhome',
    );
    expect(loggableUrl('/upload/payment/success-purchase?session_id=cs_1&mix=2')).toBe(
      '/upload/payment/success-purchase?session_id=[redacted]&mix=2',
    );
    expect(loggableUrl('/x?t%6Fken=abc&CODE=1&code')).toBe('/x?t%6Fken=[redacted]&CODE=[redacted]&code=[redacted]');
    expect(loggableUrl('/x?%E0%A4%A=1')).toBe('/x?%E0%A4%A=1');
    expect(loggableUrl('/api/feed')).toBe('/api/feed');
    expect(loggableUrl('/graphql?query=mutation%20R(%24t%3AString!)&variables=%7B%22t%22%3A%22x%22%7D')).toBe(
      '/graphql?query=mutation%20R(%24t%3AString!)&variables=[redacted]',
    );
  });

  let app: TestApp['app'];
  let close: () => Promise<void>;
  const lines: string[] = [];
  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    const dataDir = await mkdtemp(join(tmpdir(), 'mixcrate-test-data-'));
    const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'y'.repeat(40), DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
    const orm = await openOrm(databaseUrl);
    await migrate(orm);
    const log = createLogger('info', 'json', { write: (line: string) => void lines.push(line) });
    const services = await createServices(config, orm, pino({ level: 'silent' }));
    app = await buildApp(services, { logger: log });
    await app.ready();
    close = async () => {
      await app.close();
      await services.close();
      await orm.close();
      await dropTestDatabase(databaseUrl);
      await rm(dataDir, { recursive: true, force: true });
    };
  }, 60_000);
  afterAll(() => close?.());

  test('a page view of a reset link, a checkout return and a code leave no secret in the one line they log', async () => {
    for (const url of [
      '/signin/password-reset?email=someone%40example.com&token=RESET-TOKEN-1',
      '/upload/payment/success-purchase?session_id=cs_test_SESSION-2&mix=1',
      '/api/feed?code=CODE-3',
      '/media/mix/mix-audio/none.mp3?token=MEDIA-TOKEN-4',
    ])
      await app.inject({ method: 'GET', url });
    const logged = lines.join('\n');
    expect(logged).toContain('/signin/password-reset?email=[redacted]&token=[redacted]');
    expect(logged).toContain('session_id=[redacted]&mix=1');
    for (const secret of ['RESET-TOKEN-1', 'someone%40example.com', 'SESSION-2', 'CODE-3', 'MEDIA-TOKEN-4'])
      expect(logged).not.toContain(secret);
  });
});
