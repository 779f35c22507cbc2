import { Migration } from '@mikro-orm/migrations';

/**
 * Search ranks mixes by their listens of the last seven days (docs/search.md#ranking): an index on a mix's listens by
 * start lets each candidate count them without reading its older listens.
 */
export class Migration20261226300000_listen_mix_recent extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "listen_mix_recent_idx" on "listen" ("mix_id", "started_at" desc)');
  }
}
