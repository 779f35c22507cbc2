import { Migration } from '@mikro-orm/migrations';

/** Issue 28: the audit log, the moderation queue, creator claims, and notifications that name a claim's creator. */
export class Migration20261220000000_moderation_claims extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "moderation_item" ("id" uuid not null, "kind" varchar(40) not null, "subject_id" varchar(255) not null, "summary" text not null, "links" jsonb not null, "raised_by_id" uuid null, "status" text not null default \'open\', "opened_at" timestamptz not null, "decided_at" timestamptz null, "decided_by_id" uuid null, "reason" text null, primary key ("id"));',
    );
    this.addSql('create index "moderation_item_status_idx" on "moderation_item" ("status", "opened_at", "id");');
    this.addSql(
      'create unique index "moderation_item_subject_open_unique" on "moderation_item" ("kind", "subject_id") where "status" = \'open\';',
    );
    this.addSql(
      'create table "creator_claim" ("id" uuid not null, "user_id" uuid not null, "subject" text not null, "subject_key" varchar(300) not null, "subject_name" varchar(255) not null, "evidence" jsonb not null, "note" text not null, "status" text not null default \'pending\', "created_at" timestamptz not null, "decided_at" timestamptz null, "reason" text null, primary key ("id"));',
    );
    this.addSql('create index "creator_claim_user_idx" on "creator_claim" ("user_id");');
    this.addSql(
      'create unique index "creator_claim_held_unique" on "creator_claim" ("subject", "subject_key") where "status" = \'approved\';',
    );
    this.addSql(
      'create unique index "creator_claim_pending_unique" on "creator_claim" ("user_id", "subject", "subject_key") where "status" = \'pending\';',
    );
    this.addSql(
      'create table "audit_entry" ("id" uuid not null, "actor_id" uuid null, "actor_name" varchar(255) not null, "action" varchar(60) not null, "target_kind" varchar(40) not null, "target_id" varchar(255) not null, "target_name" varchar(255) null, "reason" text null, "at" timestamptz not null, primary key ("id"));',
    );
    this.addSql('create index "audit_entry_at_idx" on "audit_entry" ("at" desc, "id" desc);');
    this.addSql('alter table "notification" add "detail" varchar(255) null;');
    this.addSql(
      'alter table "moderation_item" add constraint "moderation_item_raised_by_id_foreign" foreign key ("raised_by_id") references "app_user" ("id") on delete set null;',
    );
    this.addSql(
      'alter table "moderation_item" add constraint "moderation_item_decided_by_id_foreign" foreign key ("decided_by_id") references "app_user" ("id") on delete set null;',
    );
    this.addSql(
      'alter table "moderation_item" add constraint "moderation_item_status_check" check ("status" in (\'open\', \'approved\', \'rejected\'));',
    );
    this.addSql(
      'alter table "creator_claim" add constraint "creator_claim_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;',
    );
    this.addSql('alter table "creator_claim" add constraint "creator_claim_subject_check" check ("subject" in (\'creator\', \'label\'));');
    this.addSql(
      "alter table \"creator_claim\" add constraint \"creator_claim_status_check\" check (\"status\" in ('pending', 'approved', 'rejected', 'revoked'));",
    );
    this.addSql(
      'alter table "audit_entry" add constraint "audit_entry_actor_id_foreign" foreign key ("actor_id") references "app_user" ("id") on delete set null;',
    );
  }
}
