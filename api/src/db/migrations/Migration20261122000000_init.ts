import { Migration } from '@mikro-orm/migrations';

/** The whole domain: accounts, follows, mixes and tracklists, the catalogue, listens, library, payments, reset tokens. */
export class Migration20261122000000_init extends Migration {
  override async up(): Promise<void> {
    // MikroORM does not create extensions. earthdistance is not trusted: in production a superuser or the owner creates it.
    this.addSql('create extension if not exists cube');
    this.addSql('create extension if not exists earthdistance');
    this.addSql('create extension if not exists pg_trgm');
    // An index on ll_to_earth itself does not survive pg_dump/restore on PostgreSQL 15; this immutable wrapper does.
    this.addSql(`create or replace function geo_earth(lat float8, lng float8) returns earth
      language sql immutable strict parallel safe set search_path = public, pg_temp
      as $$ select ll_to_earth(lat, lng) $$`);
    this.addSql(
      'create table "track" ("id" uuid not null, "title" varchar(300) not null, "creators" jsonb not null, "label" jsonb null, "cover" varchar(300) null, "is_manual" boolean not null default false, "buy" boolean not null default false, "new_release" boolean not null default false, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql(
      'create table "app_user" ("id" uuid not null, "email" varchar(254) not null, "password_hash" varchar(72) not null, "has_opted_in" boolean not null default false, "user_name" varchar(30) null, "display_name" varchar(50) not null default \'\', "user_type" varchar(20) not null default \'listener\', "bio" varchar(180) not null default \'\', "user_image" varchar(120) null, "latitude" double precision null, "longitude" double precision null, "is_agreed_to_conduct" boolean not null default false, "current_mix_id" uuid null, "current_mix_pos" double precision not null default 0, "password_checked_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('alter table "app_user" add constraint "app_user_email_unique" unique ("email")');
    this.addSql('create index "app_user_geo_idx" on "app_user" using gist (geo_earth("latitude", "longitude"))');
    this.addSql('create index "app_user_search_idx" on "app_user" using gin ("display_name" gin_trgm_ops, "user_name" gin_trgm_ops)');
    this.addSql('create unique index "app_user_user_name_lower_unique" on "app_user" (lower("user_name"))');
    this.addSql(
      'create table "saved_track" ("user_id" uuid not null, "track_id" uuid not null, "saved_at" timestamptz not null, primary key ("user_id", "track_id"))',
    );
    this.addSql(
      'create table "password_reset_token" ("id" uuid not null, "user_id" uuid not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "password_reset_token_user_idx" on "password_reset_token" ("user_id")');
    this.addSql('alter table "password_reset_token" add constraint "password_reset_token_token_hash_unique" unique ("token_hash")');
    this.addSql(
      'create table "mix" ("id" uuid not null, "owner_id" uuid not null, "title" varchar(200) not null, "genre" varchar(32) not null, "cover" varchar(120) not null, "mp3" varchar(120) not null, "audio_bytes" bigint not null default \'0\', "duration_seconds" double precision null, "bitrate" int null, "peaks" jsonb null, "waveform_state" text not null default \'pending\', "latitude" double precision null, "longitude" double precision null, "status" text not null default \'draft\', "published_at" timestamptz null, "expires_at" timestamptz null, "deactivated_at" timestamptz null, "play_count" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "mix_owner_idx" on "mix" ("owner_id")');
    this.addSql('create index "mix_geo_idx" on "mix" using gist (geo_earth("latitude", "longitude"))');
    this.addSql(
      'create index "mix_feed_idx" on "mix" ("genre", "published_at" desc) where "status" = \'published\' and "deactivated_at" is null',
    );
    this.addSql(
      'create index "mix_owner_published_idx" on "mix" ("owner_id", "published_at" desc) where "status" = \'published\' and "deactivated_at" is null',
    );
    this.addSql(
      'alter table "mix" add constraint "mix_waveform_state_check" check ("waveform_state" in (\'pending\', \'ready\', \'failed\'))',
    );
    this.addSql('alter table "mix" add constraint "mix_status_check" check ("status" in (\'draft\', \'published\'))');
    this.addSql(
      'create table "saved_mix" ("user_id" uuid not null, "mix_id" uuid not null, "saved_at" timestamptz not null, primary key ("user_id", "mix_id"))',
    );
    this.addSql('create index "saved_mix_mix_idx" on "saved_mix" ("mix_id")');
    this.addSql(
      'create table "payment" ("id" uuid not null, "user_id" uuid not null, "mix_id" uuid null, "kind" text not null, "provider" varchar(20) not null, "provider_ref" varchar(255) not null, "status" text not null default \'created\', "amount_cents" int not null, "currency" varchar(3) not null default \'usd\', "created_at" timestamptz not null, "paid_at" timestamptz null, primary key ("id"))',
    );
    this.addSql('create index "payment_user_idx" on "payment" ("user_id")');
    this.addSql('alter table "payment" add constraint "payment_provider_ref_unique" unique ("provider_ref")');
    this.addSql('alter table "payment" add constraint "payment_kind_check" check ("kind" in (\'single\', \'subscription\'))');
    this.addSql(
      "alter table \"payment\" add constraint \"payment_status_check\" check (\"status\" in ('created', 'paid', 'canceled', 'failed'))",
    );
    this.addSql(
      'create table "mix_track" ("id" uuid not null, "mix_id" uuid not null, "track_id" uuid not null, "position" int not null, "start_time" double precision null, "end_time" double precision null, primary key ("id"))',
    );
    this.addSql('create index "mix_track_track_idx" on "mix_track" ("track_id")');
    this.addSql('alter table "mix_track" add constraint "mix_track_mix_position_unique" unique ("mix_id", "position")');
    this.addSql(
      'create table "listen" ("id" uuid not null, "mix_id" uuid not null, "user_id" uuid null, "started_at" timestamptz not null, "ended_at" timestamptz null, primary key ("id"))',
    );
    this.addSql('create index "listen_mix_idx" on "listen" ("mix_id")');
    this.addSql('create index "listen_user_idx" on "listen" ("user_id")');
    this.addSql(
      'create unique index "listen_one_open_per_member" on "listen" ("mix_id", "user_id") where "ended_at" is null and "user_id" is not null',
    );
    this.addSql(
      'create table "follow" ("follower_id" uuid not null, "followee_id" uuid not null, "created_at" timestamptz not null, primary key ("follower_id", "followee_id"))',
    );
    this.addSql('create index "follow_followee_idx" on "follow" ("followee_id")');
    this.addSql(
      'create table "entitlement" ("id" uuid not null, "user_id" uuid not null, "mix_id" uuid null, "payment_id" uuid null, "source" text not null, "code" varchar(64) null, "valid_from" timestamptz not null, "valid_until" timestamptz null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "entitlement_user_idx" on "entitlement" ("user_id")');
    this.addSql(
      'alter table "entitlement" add constraint "entitlement_source_check" check ("source" in (\'code\', \'single\', \'subscription\'))',
    );
    this.addSql(
      'alter table "app_user" add constraint "app_user_current_mix_id_foreign" foreign key ("current_mix_id") references "mix" ("id") on delete set null',
    );
    this.addSql(
      'alter table "saved_track" add constraint "saved_track_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "saved_track" add constraint "saved_track_track_id_foreign" foreign key ("track_id") references "track" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "password_reset_token" add constraint "password_reset_token_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "mix" add constraint "mix_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "saved_mix" add constraint "saved_mix_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "saved_mix" add constraint "saved_mix_mix_id_foreign" foreign key ("mix_id") references "mix" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "payment" add constraint "payment_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "payment" add constraint "payment_mix_id_foreign" foreign key ("mix_id") references "mix" ("id") on delete set null',
    );
    this.addSql(
      'alter table "mix_track" add constraint "mix_track_mix_id_foreign" foreign key ("mix_id") references "mix" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "mix_track" add constraint "mix_track_track_id_foreign" foreign key ("track_id") references "track" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "listen" add constraint "listen_mix_id_foreign" foreign key ("mix_id") references "mix" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "listen" add constraint "listen_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete set null',
    );
    this.addSql(
      'alter table "follow" add constraint "follow_follower_id_foreign" foreign key ("follower_id") references "app_user" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "follow" add constraint "follow_followee_id_foreign" foreign key ("followee_id") references "app_user" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "entitlement" add constraint "entitlement_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "entitlement" add constraint "entitlement_mix_id_foreign" foreign key ("mix_id") references "mix" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "entitlement" add constraint "entitlement_payment_id_foreign" foreign key ("payment_id") references "payment" ("id") on delete set null',
    );
  }
}
