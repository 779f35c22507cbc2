import { Migration } from '@mikro-orm/migrations';

/**
 * One search over mixes, members and tracks (docs/search.md#how-it-finds). The same word-level index as the catalogue
 * lookup (a vocabulary with each word's deletion keys, postings per word), over documents of three kinds: 1 a visible
 * mix (title, its DJ's names, genre), 2 a member with a user name (display and user name), 3 a catalogue track
 * (title, creators, label; a track typed by hand while a visible mix plays it). Postings are kept per kind, newest document last, so a common word's newest documents of
 * one kind are one index range.
 *
 * Triggers put every changed row into `search_pending` and wake the indexer (NOTIFY search_pending), which brings its
 * documents up to date within moments; searches also check visibility against the mix itself, so a mix that stops
 * being visible is gone at once.
 */
export class Migration20261222000000_search extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table "search_word" ("id" serial primary key, "word" varchar(64) not null, "df" int not null default 0)');
    this.addSql('alter table "search_word" add constraint "search_word_word_unique" unique ("word")');
    this.addSql('create index "search_word_prefix_idx" on "search_word" ("word" varchar_pattern_ops)');
    this.addSql('create table "search_word_key" ("key" varchar(64) not null, "word_id" int not null, primary key ("key", "word_id"))');
    this.addSql(
      'create table "search_doc" ("doc_no" serial primary key, "kind" smallint not null, "ref_id" uuid not null, "words" int[] not null, "body" jsonb not null, "name_key" varchar(300) not null)',
    );
    this.addSql('alter table "search_doc" add constraint "search_doc_ref_unique" unique ("kind", "ref_id")');
    // Titles starting with what was typed (an exact title included).
    this.addSql('create index "search_doc_name_idx" on "search_doc" ("name_key" varchar_pattern_ops, "kind")');
    this.addSql(
      'create table "search_posting" ("word_id" int not null, "kind" smallint not null, "doc_no" int not null, primary key ("word_id", "kind", "doc_no"))',
    );
    this.addSql('create table "search_pending" ("kind" smallint not null, "ref_id" uuid not null, primary key ("kind", "ref_id"))');
    this.addSql(`create or replace function search_enqueue() returns trigger
      language plpgsql set search_path = public, pg_temp
      as $$
      declare
        doc_kind smallint := tg_argv[0]::smallint;
        ref uuid := case when tg_op = 'DELETE' then old.id else new.id end;
      begin
        -- Updating a row already queued locks it until this change commits, so the indexer cannot take it before the
        -- change is visible (and lose it); a row the indexer holds is queued again once the indexer is done.
        insert into search_pending (kind, ref_id) values (doc_kind, ref)
        on conflict (kind, ref_id) do update set kind = excluded.kind;
        -- A member's names are part of their mixes' documents.
        if doc_kind = 2 and tg_op = 'UPDATE' then
          insert into search_pending (kind, ref_id) select 1, m.id from mix m where m.owner_id = ref
          on conflict (kind, ref_id) do update set kind = excluded.kind;
        end if;
        -- A track typed by hand is found while a visible mix plays it.
        if doc_kind = 1 and tg_op <> 'DELETE' then
          insert into search_pending (kind, ref_id)
          select distinct 3, t.id from mix_track mt join track t on t.id = mt.track_id where mt.mix_id = ref and t.is_manual
          on conflict (kind, ref_id) do update set kind = excluded.kind;
        end if;
        perform pg_notify('search_pending', '');
        return null;
      end $$`);
    this.addSql(`create trigger "search_mix" after insert or delete or update of "title", "genre", "status", "deactivated_at", "expires_at", "owner_id"
      on "mix" for each row execute function search_enqueue('1')`);
    this.addSql(`create trigger "search_member" after insert or delete or update of "display_name", "user_name"
      on "app_user" for each row execute function search_enqueue('2')`);
    this.addSql(`create trigger "search_track" after insert or delete or update of "title", "creators", "label", "is_manual"
      on "track" for each row execute function search_enqueue('3')`);
    this.addSql(`create or replace function search_enqueue_tracklist() returns trigger
      language plpgsql set search_path = public, pg_temp
      as $$ begin
        insert into search_pending (kind, ref_id)
        values (3, case when tg_op = 'DELETE' then old.track_id else new.track_id end)
        on conflict (kind, ref_id) do update set kind = excluded.kind;
        perform pg_notify('search_pending', '');
        return null;
      end $$`);
    this.addSql(`create trigger "search_tracklist" after insert or delete on "mix_track"
      for each row execute function search_enqueue_tracklist()`);
    // What exists already is indexed by the first start's indexer.
    this.addSql(`insert into search_pending (kind, ref_id)
      select 1, id from mix union all select 2, id from app_user union all select 3, id from track`);
  }
}
