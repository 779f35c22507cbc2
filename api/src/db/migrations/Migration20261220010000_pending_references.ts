import { Migration } from '@mikro-orm/migrations';

/** Issue 28: reference audio that matched another owner's track, held for a moderator. */
export class Migration20261220010000_pending_references extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "pending_reference" ("id" uuid not null, "track_id" uuid not null, "user_id" uuid not null, "matched_track_id" uuid null, "seconds" double precision not null, "hashes" int[] not null, "data" int[] not null, "created_at" timestamptz not null, primary key ("id"));',
    );
    this.addSql(
      'alter table "pending_reference" add constraint "pending_reference_track_id_foreign" foreign key ("track_id") references "track" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "pending_reference" add constraint "pending_reference_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "pending_reference" add constraint "pending_reference_matched_track_id_foreign" foreign key ("matched_track_id") references "track" ("id") on delete set null;',
    );
  }
}
