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

test('a radius query over mix locations is served by the GiST index', async () => {
  const connection = t.services.orm.em.getConnection();
  await connection.execute('set enable_seqscan = off');
  const plan = await connection.execute<{ 'QUERY PLAN': string }[]>(
    `explain select id from mix
      where earth_box(geo_earth(52.52, 13.405), 100000) @> geo_earth(latitude, longitude)
        and earth_distance(geo_earth(52.52, 13.405), geo_earth(latitude, longitude)) <= 100000`,
  );
  expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('mix_geo_idx');
});
