/**
 * The settings every pooled connection starts with: the planner's JIT is off (db/orm.ts says why), whatever the
 * server's default, so no statement's cost estimate decides whether it pays tens of milliseconds of compiling.
 */
import pino from 'pino';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Orm, openOrm } from '../src/db/orm.js';
import { createTestDatabase, dropTestDatabase } from './support/app.js';

let url: string;
let orm: Orm;
beforeAll(async () => {
  url = await createTestDatabase();
  orm = await openOrm(url, pino({ level: 'silent' }));
}, 120_000);
afterAll(async () => {
  await orm.close();
  await dropTestDatabase(url);
});

test('every connection of the pool has JIT off, in and out of a transaction', async () => {
  const em = orm.em.fork();
  const [{ jit: database }] = await em.execute<{ jit: string }[]>(`select setting as jit from pg_settings where name = 'jit'`);
  expect(database).toBe('off');
  await em.transactional(async (transaction) => {
    const [{ jit }] = await transaction.execute<{ jit: string }[]>('show jit');
    expect(jit).toBe('off');
  });
  const sessions = await Promise.all(Array.from({ length: 4 }, () => orm.em.fork().execute<{ jit: string }[]>('show jit')));
  expect(sessions.map(([row]) => row.jit)).toEqual(['off', 'off', 'off', 'off']);
});
