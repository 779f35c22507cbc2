import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test('the committed migrations produce exactly the schema the entities describe', async () => {
  const diff = await t.services.orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true });
  expect(diff.trim()).toBe('');
});

test('running the migrations again changes nothing', async () => {
  expect(await t.services.orm.migrator.getPending()).toEqual([]);
  await t.services.orm.migrator.up();
});
