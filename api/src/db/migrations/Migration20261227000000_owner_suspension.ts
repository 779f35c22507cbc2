import { Migration } from '@mikro-orm/migrations';

/**
 * A mix carries its owner's suspension (issue 31, docs/trust.md#hidden-means-hidden): `mix.owner_suspended_until` is
 * null while the owner is not suspended, the suspension's end while they are, and 'infinity' for a suspension without
 * one. Whether the mix is hidden is then a test of its own row (OWNER_SUSPENDED_SQL against now(), so a suspension
 * that ends by time shows the mixes again with no write), where a probe of `app_user` per mix read two index pages for
 * every mix a feed page counted and walked: 30,000 buffers of a 5,000 km page at 100,000 mixes.
 *
 * Triggers keep the copy exact: a member's suspension (set, changed, lifted) is copied onto their mixes, and a mix
 * written with an owner (created, transferred, or the column written by anyone) takes its owner's. The feed's indexes
 * include the copy and the moderation hold, so a feed page decides visibility from index-only scans.
 */
export class Migration20261227000000_owner_suspension extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "mix" add "owner_suspended_until" timestamptz null');
    // The one encoding of a member's suspension on their mixes, for both triggers and the backfill.
    this.addSql(`create or replace function member_suspension_end(suspended_at timestamptz, suspended_until timestamptz)
      returns timestamptz language sql immutable set search_path = public, pg_temp
      as $$ select case when suspended_at is null then null else coalesce(suspended_until, 'infinity'::timestamptz) end $$`);
    this.addSql(`update "mix" m set "owner_suspended_until" = member_suspension_end(u.suspended_at, u.suspended_until)
      from "app_user" u where u.id = m.owner_id and u.suspended_at is not null`);
    this.addSql(`create or replace function mix_owner_suspension() returns trigger
      language plpgsql set search_path = public, pg_temp
      as $$ begin
        new.owner_suspended_until := (select member_suspension_end(u.suspended_at, u.suspended_until) from app_user u where u.id = new.owner_id);
        return new;
      end $$`);
    this.addSql(`create trigger "mix_owner_suspension" before insert or update of "owner_id", "owner_suspended_until" on "mix"
      for each row execute function mix_owner_suspension()`);
    this.addSql(`create or replace function member_mixes_suspension() returns trigger
      language plpgsql set search_path = public, pg_temp
      as $$ begin
        update mix set owner_suspended_until = member_suspension_end(new.suspended_at, new.suspended_until)
         where owner_id = new.id
           and owner_suspended_until is distinct from member_suspension_end(new.suspended_at, new.suspended_until);
        return null;
      end $$`);
    this.addSql(`create trigger "member_mixes_suspension" after update of "suspended_at", "suspended_until" on "app_user"
      for each row execute function member_mixes_suspension()`);
    // The few mixes of suspended members, which the feed's count takes off its tally.
    this.addSql('create index "mix_owner_suspended_idx" on "mix" ("genre") where "owner_suspended_until" is not null');
    // The feed's indexes also carry the hold and the copied suspension, so its walks and counts test visibility from
    // the index alone (index-only scans) instead of reading each mix's row.
    const visible = `where "status" = 'published' and "deactivated_at" is null`;
    const hidden = '"moderation_state", "owner_suspended_until"';
    this.addSql('drop index "mix_visible_geo_idx"');
    this.addSql(`create index "mix_visible_geo_idx" on "mix" using gist ("geo") include ("expires_at", ${hidden}) ${visible}`);
    this.addSql('drop index "mix_visible_recent_idx"');
    this.addSql(
      `create index "mix_visible_recent_idx" on "mix" ("published_at" desc, "id" desc) include ("expires_at", "geo", ${hidden}) ${visible}`,
    );
    this.addSql('drop index "mix_visible_genre_idx"');
    this.addSql(
      `create index "mix_visible_genre_idx" on "mix" ("genre", "published_at" desc, "id" desc) include ("expires_at", "geo", ${hidden}) ${visible}`,
    );
    // A new column has no statistics until the table is analysed, and adding one does not prompt autovacuum to: the
    // planner would take it for mostly set and count the suspended members' mixes by reading the whole table.
    this.addSql('analyze "mix"');
  }
}
