import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

const capture = new AsyncLocalStorage<string[]>();
let installed = false;

/**
 * Every statement sent to PostgreSQL by `run` and by what it starts (its async context), through any connection of
 * the process (the ORM's pool, raw pg clients, transactions' begin and commit alike): `pg.Client#query` is where they
 * all pass. Background work that merely runs meanwhile (sweepers, LISTEN) is not counted.
 */
export async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  if (!installed) {
    installed = true;
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0];
      capture.getStore()?.push(typeof first === 'string' ? first : String((first as { text?: unknown } | null)?.text ?? first));
      return Reflect.apply(query, this, args);
    } as typeof query;
  }
  const statements: string[] = [];
  await capture.run(statements, run);
  return statements;
}
