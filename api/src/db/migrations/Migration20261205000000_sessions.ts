import { Migration } from '@mikro-orm/migrations';

/**
 * Sessions that end (issue 26): a row per sign-in, named by the token's `sid`. Deleting a row ends the session; the
 * trigger tells every API instance (LISTEN sessions_ended) its id, so each forgets it and closes its sockets at once.
 * A deleted member's sessions go with them (on delete cascade), which tells the instances the same way: the members
 * trigger, which only the remembered sign-ins listened to, is no longer needed.
 */
export class Migration20261205000000_sessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "member_session" ("id" uuid not null, "user_id" uuid not null, "created_at" timestamptz not null, "last_seen_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "member_session_user_idx" on "member_session" ("user_id")');
    this.addSql(
      'alter table "member_session" add constraint "member_session_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade',
    );
    this.addSql(`create or replace function notify_sessions_ended() returns trigger
      language plpgsql set search_path = public, pg_temp
      as $$ begin perform pg_notify('sessions_ended', old.id::text); return null; end $$`);
    this.addSql(`create trigger "sessions_ended" after delete on "member_session"
      for each row execute function notify_sessions_ended()`);
    this.addSql('drop trigger if exists "members_removed" on "app_user"');
    this.addSql('drop function if exists notify_members_removed()');
  }
}
