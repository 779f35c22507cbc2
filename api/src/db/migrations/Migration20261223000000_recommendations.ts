import { Migration } from '@mikro-orm/migrations';

/**
 * The "For you" row's popular part (docs/home-feed.md#for-you) reads the week's most recent listens newest first: an
 * index on their start (with the mix, for an index-only scan) bounds that read to the sample it keeps.
 */
export class Migration20261223000000_recommendations extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "listen_recent_idx" on "listen" ("started_at" desc) include ("mix_id")');
  }
}
