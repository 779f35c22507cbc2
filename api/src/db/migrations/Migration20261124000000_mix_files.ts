import { Migration } from '@mikro-orm/migrations';

/**
 * Media delivery looks a mix up by its file name on every request for /media/mix/mix-audio/{file} (and the cover),
 * to serve only what may be seen: the indexes keep that lookup an index probe at any number of mixes. Each API
 * instance caches what it looked up; the trigger tells every instance (LISTEN mix_files_changed) the file names of a
 * mix whose visibility or files change, so a deactivated mix stops being served at once.
 */
export class Migration20261124000000_mix_files extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index "mix_mp3_idx" on "mix" ("mp3")');
    this.addSql('create index "mix_cover_idx" on "mix" ("cover")');
    this.addSql(`create or replace function notify_mix_files_changed() returns trigger
      language plpgsql set search_path = public, pg_temp
      as $$ begin perform pg_notify('mix_files_changed', old.mp3 || ' ' || old.cover); return null; end $$`);
    this.addSql(`create trigger "mix_files_changed"
      after update of "status", "published_at", "expires_at", "deactivated_at", "owner_id", "mp3", "cover" or delete on "mix"
      for each row execute function notify_mix_files_changed()`);
  }
}
