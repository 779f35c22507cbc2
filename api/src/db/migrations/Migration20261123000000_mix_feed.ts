import { Migration } from '@mikro-orm/migrations';

const VISIBLE = `where "status" = 'published' and "deactivated_at" is null`;

/**
 * The feed, served from indexes at any size.
 *
 * `geo_earth` must set its search_path (see the init migration), which keeps PostgreSQL from inlining it: called per
 * row it costs tens of microseconds, seconds for a radius count over 100,000 mixes. So the point on the earth is
 * computed once, when a mix is written, into a stored generated column, and the feed's indexes carry it (INCLUDE):
 * radius counts and pages are index-only scans. GiST answers "within R of a point"; btree answers "newest first", over
 * all genres or within one.
 *
 * Counting every visible mix would still read them all on each request. `mix_feed_tally` keeps how many published,
 * active mixes of each genre stop being hosted in each (UTC, Monday-based) week, maintained by a trigger on every write
 * to `mix`, so "how many mixes, everywhere" sums about 53 weeks per genre and counts exactly only the mixes whose hosting
 * ends this week.
 */
export class Migration20261123000000_mix_feed extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "mix" add column "geo" earth null generated always as (geo_earth("latitude", "longitude")) stored');
    this.addSql('drop index "mix_geo_idx"');
    this.addSql('drop index "mix_feed_idx"');
    this.addSql(`create index "mix_visible_geo_idx" on "mix" using gist ("geo") include ("expires_at") ${VISIBLE}`);
    this.addSql(`create index "mix_visible_recent_idx" on "mix" ("published_at" desc, "id" desc) include ("expires_at", "geo") ${VISIBLE}`);
    this.addSql(
      `create index "mix_visible_genre_idx" on "mix" ("genre", "published_at" desc, "id" desc) include ("expires_at", "geo") ${VISIBLE}`,
    );
    this.addSql(`create index "mix_visible_expiry_idx" on "mix" ("expires_at", "genre") ${VISIBLE}`);

    this.addSql(
      'create table "mix_feed_tally" ("expires_week" date not null, "genre" varchar(32) not null, "mixes" int not null, primary key ("expires_week", "genre"))',
    );
    // A week is named by its Monday; a mix that never expires counts in the 'infinity' week.
    this.addSql(`create or replace function mix_feed_tally_apply() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') and old.status = 'published' and old.deactivated_at is null then
          update mix_feed_tally set mixes = mixes - 1
           where expires_week = coalesce(date_trunc('week', old.expires_at at time zone 'UTC')::date, 'infinity') and genre = old.genre;
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.status = 'published' and new.deactivated_at is null then
          insert into mix_feed_tally (expires_week, genre, mixes)
          values (coalesce(date_trunc('week', new.expires_at at time zone 'UTC')::date, 'infinity'), new.genre, 1)
          on conflict (expires_week, genre) do update set mixes = mix_feed_tally.mixes + 1;
        end if;
        return null;
      end $$`);
    this.addSql(
      'create trigger "mix_feed_tally_trigger" after insert or delete or update of "status", "deactivated_at", "expires_at", "genre" on "mix" for each row execute function mix_feed_tally_apply()',
    );
    this.addSql(`insert into "mix_feed_tally" (expires_week, genre, mixes)
      select coalesce(date_trunc('week', expires_at at time zone 'UTC')::date, 'infinity'), genre, count(*) from "mix" ${VISIBLE} group by 1, 2`);
  }
}
