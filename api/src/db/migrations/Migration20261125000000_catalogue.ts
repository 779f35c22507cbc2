import { Migration } from '@mikro-orm/migrations';

/**
 * The track catalogue (issue 15): release date, popularity, external ids, and the lookup index.
 *
 * Lookup is word-level, as Meilisearch and Typesense do it, served by b-tree indexes: `catalogue_word` is the
 * vocabulary of normalised words (with how many tracks hold each), `catalogue_word_key` maps each word's deletion
 * variants (SymSpell: every string reached by deleting up to the word's typo budget of letters) to the word, so one
 * index probe per variant of a typed word finds every catalogue word within its typo budget, and `catalogue_posting`
 * lists the tracks holding each word (read index-only). A whole-string pg_trgm GIN index answered one typed row in
 * about 100 ms at 1,000,000 tracks; this answers a 30-row tracklist in well under that (see `npm run bench -- tracklist`).
 * Manual tracks (typed by uploaders) get no postings: they never answer anyone's lookup.
 */
export class Migration20261125000000_catalogue extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "track" add column "release_date" date null');
    this.addSql('alter table "track" add column "popularity" int not null default 0');
    // A small number per track: the postings hold it (4 bytes, not a 16-byte uuid).
    // A small number per track: the postings hold it (4 bytes, not a 16-byte uuid). Existing rows get one each.
    this.addSql('create sequence "track_search_no_seq" as int');
    this.addSql('alter table "track" add column "search_no" int not null default nextval(\'track_search_no_seq\')');
    this.addSql('alter sequence "track_search_no_seq" owned by "track"."search_no"');
    this.addSql('alter table "track" add constraint "track_search_no_unique" unique ("search_no")');
    // The vocabulary ids of the track's words; null until the catalogue has indexed the track.
    this.addSql('alter table "track" add column "search_words" int[] null');
    this.addSql('create index "track_search_pending_idx" on "track" ("search_no") where "search_words" is null and not "is_manual"');
    // Where an imported track came from: one id per track, unique per source; a second import of it updates it.
    this.addSql('alter table "track" add column "external_source" varchar(40) null');
    this.addSql('alter table "track" add column "external_id" varchar(200) null');
    this.addSql('alter table "track" add constraint "track_external_unique" unique ("external_source", "external_id")');
    // The index itself is derived data (CatalogueService.reindex rebuilds it from the tracks).
    this.addSql('create table "catalogue_word" ("id" serial primary key, "word" varchar(64) not null, "df" int not null default 0)');
    this.addSql('alter table "catalogue_word" add constraint "catalogue_word_word_unique" unique ("word")');
    this.addSql('create table "catalogue_word_key" ("key" varchar(64) not null, "word_id" int not null, primary key ("key", "word_id"))');
    this.addSql('create table "catalogue_posting" ("word_id" int not null, "track_no" int not null, primary key ("word_id", "track_no"))');
    // Whoever deletes a track (the demo world's removal, a cascade) takes its postings and word counts with it.
    this.addSql(`create or replace function catalogue_forget_track() returns trigger
      language plpgsql set search_path = public, pg_temp
      as $$ begin
        if old.search_words is not null then
          delete from catalogue_posting where word_id = any(old.search_words) and track_no = old.search_no;
          update catalogue_word set df = df - 1 where id = any(old.search_words);
        end if;
        return old;
      end $$`);
    this.addSql('create trigger "catalogue_forget_track" before delete on "track" for each row execute function catalogue_forget_track()');
    // Popularity: how often a track was chosen for a tracklist or saved here (plays are folded in by
    // CatalogueService.refreshPopularity, which recomputes all three).
    this.addSql(`create or replace function catalogue_count_track_use() returns trigger
      language plpgsql set search_path = public, pg_temp
      as $$ begin
        if tg_op = 'INSERT' then
          update track set popularity = popularity + 1 where id = new.track_id;
        else
          update track set popularity = greatest(popularity - 1, 0) where id = old.track_id;
        end if;
        return null;
      end $$`);
    this.addSql(
      'create trigger "catalogue_count_chosen" after insert or delete on "mix_track" for each row execute function catalogue_count_track_use()',
    );
    this.addSql(
      'create trigger "catalogue_count_saved" after insert or delete on "saved_track" for each row execute function catalogue_count_track_use()',
    );
  }
}
