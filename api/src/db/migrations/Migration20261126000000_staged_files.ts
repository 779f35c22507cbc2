import { Migration } from '@mikro-orm/migrations';

/**
 * Crash safety of uploads (issue 14): the files of a create-mix in progress are recorded before they are written and
 * forgotten in the draft's own transaction, so the files a killed process was writing can be found and deleted.
 */
export class Migration20261126000000_staged_files extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "staged_file" ("key" varchar(200) not null, "instance" varchar(32) not null, "created_at" timestamptz not null, primary key ("key"))',
    );
    this.addSql('create index "staged_file_instance_idx" on "staged_file" ("instance")');
  }
}
