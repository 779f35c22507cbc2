import { Migration } from '@mikro-orm/migrations';

/**
 * Payments (modules/payments): subscriptions and their paid periods, provider customers, handled provider events (one
 * effect per event id), the test-mode billing page's sessions, the creator rewards ledger, and the entitlement's link
 * to the subscription that hosts a mix (at most one entitlement per payment), and where a checkout is paid.
 */
export class Migration20261130000000_payments extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "payment" add "checkout_url" varchar(2000) null');
    this.addSql(
      'create table "payment_event" ("id" varchar(255) not null, "type" varchar(100) not null, "received_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql(
      'create table "test_portal_session" ("id" varchar(64) not null, "user_id" uuid not null, "expires_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql(
      'alter table "test_portal_session" add constraint "test_portal_session_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade',
    );
    this.addSql(
      'create table "subscription" ("id" uuid not null, "user_id" uuid not null, "provider" varchar(20) not null, "provider_ref" varchar(255) not null, "status" text not null, "current_period_start" timestamptz null, "current_period_end" timestamptz null, "cancel_at_period_end" boolean not null default false, "ended_at" timestamptz null, "state_as_of" timestamptz not null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "subscription_user_idx" on "subscription" ("user_id")');
    this.addSql('alter table "subscription" add constraint "subscription_provider_ref_unique" unique ("provider_ref")');
    this.addSql(
      'alter table "subscription" add constraint "subscription_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade',
    );
    this.addSql(
      "alter table \"subscription\" add constraint \"subscription_status_check\" check (\"status\" in ('incomplete', 'trialing', 'active', 'past_due', 'unpaid', 'paused', 'canceled'))",
    );
    this.addSql(
      'create table "subscription_payment" ("id" uuid not null, "subscription_id" uuid not null, "provider_ref" varchar(255) not null, "amount_cents" int not null, "currency" varchar(3) not null default \'usd\', "period_start" timestamptz not null, "period_end" timestamptz not null, "paid_at" timestamptz not null, "rewards_settled_at" timestamptz null, primary key ("id"))',
    );
    this.addSql('create index "subscription_payment_subscription_idx" on "subscription_payment" ("subscription_id")');
    this.addSql('alter table "subscription_payment" add constraint "subscription_payment_provider_ref_unique" unique ("provider_ref")');
    this.addSql(
      'create index "subscription_payment_unsettled_idx" on "subscription_payment" ("period_end") where "rewards_settled_at" is null',
    );
    this.addSql(
      'alter table "subscription_payment" add constraint "subscription_payment_subscription_id_foreign" foreign key ("subscription_id") references "subscription" ("id") on delete cascade',
    );
    this.addSql(
      'create table "reward_allocation" ("id" uuid not null, "subscription_payment_id" uuid not null, "period" varchar(7) not null, "creator_key" varchar(255) null, "creator_name" varchar(255) null, "amount_cents" int not null, "listened_seconds" double precision not null default 0, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "reward_allocation_payment_idx" on "reward_allocation" ("subscription_payment_id")');
    this.addSql('create index "reward_allocation_period_idx" on "reward_allocation" ("period", "creator_key")');
    this.addSql(
      'alter table "reward_allocation" add constraint "reward_allocation_subscription_payment_id_foreign" foreign key ("subscription_payment_id") references "subscription_payment" ("id") on delete cascade',
    );
    this.addSql(
      'create table "payment_customer" ("user_id" uuid not null, "provider" varchar(20) not null, "customer_ref" varchar(255) not null, "created_at" timestamptz not null, primary key ("user_id"))',
    );
    this.addSql('alter table "payment_customer" add constraint "payment_customer_customer_ref_unique" unique ("customer_ref")');
    this.addSql(
      'alter table "payment_customer" add constraint "payment_customer_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade',
    );
    this.addSql('alter table "entitlement" add "subscription_id" uuid null');
    this.addSql(
      'alter table "entitlement" add constraint "entitlement_subscription_id_foreign" foreign key ("subscription_id") references "subscription" ("id") on delete set null',
    );
    this.addSql('create index "entitlement_mix_idx" on "entitlement" ("mix_id")');
    this.addSql('alter table "entitlement" add constraint "entitlement_payment_unique" unique ("payment_id")');
  }
}
