import { Migration } from '@mikro-orm/migrations';

/**
 * The public API's rate-limit counters without Redis (issue 19), shared by every instance on this database. Unlogged:
 * counters a crash forgets cost nothing, and skipping the write-ahead log keeps one upsert per request cheap. A schema
 * of its own, like pg-boss's: rate-limiter-flexible owns the table's shape, no entity maps it.
 */
export class Migration20261201000000_rate_limits extends Migration {
  override async up(): Promise<void> {
    this.addSql('create schema if not exists "rate_limits"');
    this.addSql(
      'create unlogged table "rate_limits"."counter" ("key" varchar(255) primary key, "points" integer not null default 0, "expire" bigint)',
    );
  }
}
