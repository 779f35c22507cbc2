import { Migration } from '@mikro-orm/migrations';

/**
 * Each API instance remembers for a minute which members exist, so a signed-in request does not ask again on every
 * call; the trigger tells every instance (LISTEN members_removed) the id of a member who is deleted, so their tokens
 * stop working at once.
 */
export class Migration20261203000000_members_removed extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function notify_members_removed() returns trigger
      language plpgsql set search_path = public, pg_temp
      as $$ begin perform pg_notify('members_removed', old.id::text); return null; end $$`);
    this.addSql(`create trigger "members_removed" after delete on "app_user"
      for each row execute function notify_members_removed()`);
  }
}
