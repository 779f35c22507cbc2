import { expect, test } from 'vitest';
import { named } from './sql.js';

test('binds each named parameter where it appears, in order, however often', () => {
  expect(named('select :a::int, :b where x = :a', { a: 1, b: 'two' })).toEqual(['select ?::int, ? where x = ?', [1, 'two', 1]]);
});

test('leaves casts, quoted text and quoted names alone', () => {
  const [sql, values] = named(`select to_char(t, 'HH24:MI:SS'), "col:x", :v::text`, { v: 3 });
  expect(sql).toBe(`select to_char(t, 'HH24:MI:SS'), "col:x", ?::text`);
  expect(values).toEqual([3]);
});

test('a missing or an unused parameter is a programming error, caught at once', () => {
  expect(() => named('select :a', {})).toThrow(':a');
  expect(() => named('select 1', { a: 1 })).toThrow(':a');
});

test("numbered: node-postgres's $1 form, one number per appearance", () => {
  expect(named('select :a::int, :b where x = :a', { a: 1, b: 'two' }, true)).toEqual(['select $1::int, $2 where x = $3', [1, 'two', 1]]);
});
