/**
 * Searches' own connections (docs/search.md#how-it-finds). Each statement is prepared once per connection and run
 * with a generic plan after that: its plan is a few index walks whatever the words, and planning it anew cost more
 * than running it (several milliseconds for the candidates' statement). JIT off as for the ORM's connections.
 */
import pg from 'pg';
import { named } from '../../shared/sql.js';

export class SearchDb {
  private readonly pool: pg.Pool;
  /** Prepared statements' names by their text (a handful: the texts differ only by the filters used). */
  private readonly names = new Map<string, string>();

  constructor(connectionString: string) {
    this.pool = new pg.Pool({
      connectionString,
      max: 4,
      application_name: 'mixcrate-search',
      options: '-c jit=off -c plan_cache_mode=force_generic_plan',
    });
  }

  /** Runs a statement with named parameters (`:name`). */
  async query<T extends object>(text: string, params: Record<string, unknown>): Promise<T[]> {
    const [sql, values] = named(text, params, true);
    let name = this.names.get(sql);
    if (name === undefined) {
      name = `search_${this.names.size}`;
      this.names.set(sql, name);
    }
    return (await this.pool.query<T>({ name, text: sql, values })).rows;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
