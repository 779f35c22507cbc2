import { Migration } from '@mikro-orm/migrations';

/** Staff roles (issue 26: the rewards ledger is for operators only): one row per moderator or operator. */
export class Migration20261210000000_member_roles extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "member_role" ("user_id" uuid not null, "role" text check ("role" in ('moderator', 'operator')) not null, "granted_at" timestamptz not null, primary key ("user_id"))`,
    );
    this.addSql(
      'alter table "member_role" add constraint "member_role_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade',
    );
  }
}
