import { Migration } from '@mikro-orm/migrations';

/** Issue 28: creators' payout accounts, payouts (one per creator and month), and the ledger lines each payout paid. */
export class Migration20261220020000_payouts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "payout_account" ("user_id" uuid not null, "provider" varchar(20) not null, "account_ref" varchar(255) not null, "status" text not null default \'onboarding\', "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("user_id"));',
    );
    this.addSql('alter table "payout_account" add constraint "payout_account_account_ref_unique" unique ("account_ref");');
    this.addSql(
      'create table "payout" ("id" uuid not null, "user_id" uuid null, "period" varchar(7) not null, "amount_cents" int not null, "provider" varchar(20) not null, "account_ref" varchar(255) not null, "idempotency_key" varchar(120) not null, "status" text not null default \'pending\', "transfer_ref" varchar(255) null, "attempts" int not null default 0, "last_error" text null, "created_at" timestamptz not null, "paid_at" timestamptz null, primary key ("id"));',
    );
    this.addSql('alter table "payout" add constraint "payout_idempotency_key_unique" unique ("idempotency_key");');
    this.addSql('alter table "payout" add constraint "payout_user_period_unique" unique ("user_id", "period");');
    this.addSql('alter table "reward_allocation" add "payout_id" uuid null;');
    this.addSql(
      'alter table "reward_allocation" add constraint "reward_allocation_payout_id_foreign" foreign key ("payout_id") references "payout" ("id") on delete restrict;',
    );
    this.addSql('create index "reward_allocation_payout_idx" on "reward_allocation" ("payout_id");');
    this.addSql(
      'alter table "payout_account" add constraint "payout_account_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;',
    );
    this.addSql(
      'alter table "payout_account" add constraint "payout_account_status_check" check ("status" in (\'onboarding\', \'enabled\', \'restricted\'));',
    );
    this.addSql(
      'alter table "payout" add constraint "payout_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete set null;',
    );
    this.addSql('alter table "payout" add constraint "payout_status_check" check ("status" in (\'pending\', \'paid\', \'failed\'));');
  }
}
