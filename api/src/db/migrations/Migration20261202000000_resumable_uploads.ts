import { Migration } from '@mikro-orm/migrations';

/** tus uploads in shared storage (issue 21): the state of each, so any API process can resume or finish it. */
export class Migration20261202000000_resumable_uploads extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "resumable_upload" ("id" varchar(32) not null, "size" bigint null, "offset" bigint not null, "parts" bigint[] not null default '{}', "metadata" jsonb not null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql('create index "resumable_upload_created_idx" on "resumable_upload" ("created_at")');
  }
}
