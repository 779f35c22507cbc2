import { Migration } from '@mikro-orm/migrations';

/**
 * Reports, takedowns and trust (issue 29, docs/trust.md): a mix's moderation hold and a member's suspension, the
 * members' reports, copyright notices with their counter-notices, strikes, and the operators' strike numbers.
 *
 * The media and search triggers are made again to also fire on the hold and the suspension: a held mix's files stop
 * being served and its search document goes at once, and a suspended member's mixes follow them (a member's row
 * already queues their mixes for the indexer; the new trigger tells the media caches their files).
 */
export class Migration20261224000000_trust extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "strike_policy" ("id" int not null, "strike_limit" int not null, "window_days" int not null, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql(
      `create table "copyright_notice" ("id" uuid not null, "filer_id" uuid null, "mix_id" uuid not null, "track_id" uuid null, "claimed_name" varchar(255) not null, "text" text not null, "status" text not null default 'open', "counter_text" text null, "countered_at" timestamptz null, "created_at" timestamptz not null, "decided_at" timestamptz null, primary key ("id"))`,
    );
    this.addSql('create index "copyright_notice_mix_idx" on "copyright_notice" ("mix_id", "created_at")');
    this.addSql('create index "copyright_notice_filer_idx" on "copyright_notice" ("filer_id", "created_at" desc)');
    this.addSql(
      'create table "copyright_strike" ("id" uuid not null, "member_id" uuid not null, "notice_id" uuid null, "at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "copyright_strike_member_idx" on "copyright_strike" ("member_id", "at")');
    this.addSql(
      `create table "content_report" ("id" uuid not null, "reporter_id" uuid not null, "target_kind" text not null, "target_id" uuid not null, "reason" text not null, "note" text null, "status" text not null default 'open', "outcome" varchar(40) null, "created_at" timestamptz not null, "decided_at" timestamptz null, primary key ("id"))`,
    );
    this.addSql(
      `create unique index "content_report_open_unique" on "content_report" ("reporter_id", "target_kind", "target_id") where "status" = 'open'`,
    );
    this.addSql('create index "content_report_target_idx" on "content_report" ("target_id", "created_at")');
    this.addSql('create index "content_report_reporter_idx" on "content_report" ("reporter_id", "created_at" desc)');
    this.addSql(
      'alter table "app_user" add "suspended_at" timestamptz null, add "suspended_until" timestamptz null, add "suspension_reason" text null',
    );
    this.addSql(
      'alter table "mix" add "moderation_state" text null, add "moderation_reason" text null, add "moderated_at" timestamptz null',
    );
    this.addSql(`alter table "mix" add constraint "mix_moderation_state_check" check ("moderation_state" in ('hidden', 'removed'))`);
    this.addSql(
      'alter table "copyright_notice" add constraint "copyright_notice_filer_id_foreign" foreign key ("filer_id") references "app_user" ("id") on delete set null',
    );
    this.addSql(
      'alter table "copyright_notice" add constraint "copyright_notice_mix_id_foreign" foreign key ("mix_id") references "mix" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "copyright_notice" add constraint "copyright_notice_track_id_foreign" foreign key ("track_id") references "track" ("id") on delete set null',
    );
    this.addSql(
      `alter table "copyright_notice" add constraint "copyright_notice_status_check" check ("status" in ('open', 'countered', 'restored', 'removed'))`,
    );
    this.addSql(
      'alter table "copyright_strike" add constraint "copyright_strike_member_id_foreign" foreign key ("member_id") references "app_user" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "copyright_strike" add constraint "copyright_strike_notice_id_foreign" foreign key ("notice_id") references "copyright_notice" ("id") on delete set null',
    );
    this.addSql(
      'alter table "content_report" add constraint "content_report_reporter_id_foreign" foreign key ("reporter_id") references "app_user" ("id") on delete cascade',
    );
    this.addSql(
      `alter table "content_report" add constraint "content_report_target_kind_check" check ("target_kind" in ('mix', 'member'))`,
    );
    this.addSql(
      `alter table "content_report" add constraint "content_report_reason_check" check ("reason" in ('copyright', 'abuse', 'spam', 'impersonation', 'other'))`,
    );
    this.addSql(
      `alter table "content_report" add constraint "content_report_status_check" check ("status" in ('open', 'dismissed', 'upheld'))`,
    );

    this.addSql(`create index "mix_held_idx" on "mix" ("genre") where "moderation_state" is not null`);
    this.addSql(`create index "app_user_suspended_idx" on "app_user" ("id") where "suspended_at" is not null`);
    this.addSql('drop trigger if exists "mix_files_changed" on "mix"');
    this.addSql(`create trigger "mix_files_changed"
      after update of "status", "published_at", "expires_at", "deactivated_at", "owner_id", "mp3", "cover", "moderation_state" or delete on "mix"
      for each row execute function notify_mix_files_changed()`);
    this.addSql(`create or replace function notify_member_mix_files_changed() returns trigger
      language plpgsql set search_path = public, pg_temp
      as $$ begin
        perform pg_notify('mix_files_changed', m.mp3 || ' ' || m.cover) from mix m where m.owner_id = new.id;
        return null;
      end $$`);
    this.addSql(`create trigger "member_mix_files_changed" after update of "suspended_at", "suspended_until" on "app_user"
      for each row execute function notify_member_mix_files_changed()`);
    this.addSql('drop trigger if exists "search_mix" on "mix"');
    this.addSql(`create trigger "search_mix" after insert or delete or update of "title", "genre", "status", "deactivated_at", "expires_at", "owner_id", "moderation_state"
      on "mix" for each row execute function search_enqueue('1')`);
    this.addSql('drop trigger if exists "search_member" on "app_user"');
    this.addSql(`create trigger "search_member" after insert or delete or update of "display_name", "user_name", "suspended_at", "suspended_until"
      on "app_user" for each row execute function search_enqueue('2')`);
  }
}
