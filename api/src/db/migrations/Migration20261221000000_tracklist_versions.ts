import { Migration } from '@mikro-orm/migrations';

/**
 * Tracklist versions (issue 28, docs/payments.md#tracklist-versions): a published mix's tracklist is kept as numbered
 * versions that are only ever added, each listen names the version in force when it started, and settlement pays that
 * version's tracks. Every mix published so far gets its version 1 from its tracklist as it is now, and every listen so
 * far names it: exactly what settlement read for them before, so no unsettled period moves. A settled ledger line's
 * money, and a payment's settlement, can no longer be changed by any statement.
 */
export class Migration20261221000000_tracklist_versions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "tracklist_version" ("id" uuid not null, "mix_id" uuid not null, "number" int not null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('alter table "tracklist_version" add constraint "tracklist_version_mix_number_unique" unique ("mix_id", "number")');
    this.addSql(
      'alter table "tracklist_version" add constraint "tracklist_version_mix_id_foreign" foreign key ("mix_id") references "mix" ("id") on delete cascade',
    );
    this.addSql(
      'create table "tracklist_version_entry" ("id" uuid not null, "version_id" uuid not null, "track_id" uuid not null, "position" int not null, "start_time" double precision null, "end_time" double precision null, primary key ("id"))',
    );
    this.addSql('create index "tracklist_version_entry_track_idx" on "tracklist_version_entry" ("track_id")');
    this.addSql(
      'alter table "tracklist_version_entry" add constraint "tracklist_version_entry_version_position_unique" unique ("version_id", "position")',
    );
    this.addSql(
      'alter table "tracklist_version_entry" add constraint "tracklist_version_entry_version_id_foreign" foreign key ("version_id") references "tracklist_version" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "tracklist_version_entry" add constraint "tracklist_version_entry_track_id_foreign" foreign key ("track_id") references "track" ("id") on delete cascade',
    );
    this.addSql('alter table "listen" add "tracklist_version_id" uuid null');
    this.addSql(
      'alter table "listen" add constraint "listen_tracklist_version_id_foreign" foreign key ("tracklist_version_id") references "tracklist_version" ("id") on delete set null',
    );
    this.addSql(`insert into tracklist_version (id, mix_id, number, created_at)
      select gen_random_uuid(), m.id, 1, coalesce(m.published_at, m.created_at) from mix m
       where m.status = 'published' or exists (select 1 from listen l where l.mix_id = m.id)`);
    this.addSql(`insert into tracklist_version_entry (id, version_id, track_id, position, start_time, end_time)
      select gen_random_uuid(), v.id, mt.track_id, mt.position, mt.start_time, mt.end_time
        from tracklist_version v join mix_track mt on mt.mix_id = v.mix_id`);
    this.addSql('update listen l set tracklist_version_id = v.id from tracklist_version v where v.mix_id = l.mix_id');
    // Settled periods never change: what a settled line pays, to whom and for which period stays as written, and a
    // settled payment stays settled (a second settlement would pay its period twice).
    this.addSql(`create function reward_allocation_settled() returns trigger language plpgsql as $$
      begin
        raise exception 'a settled ledger line does not change (docs/payments.md#settled-periods)' using errcode = 'check_violation';
      end $$`);
    this.addSql(`create trigger "reward_allocation_settled" before update of "subscription_payment_id", "period", "creator_key", "amount_cents", "listened_seconds"
      on "reward_allocation" for each row execute function reward_allocation_settled()`);
    this.addSql(`create function subscription_payment_settled() returns trigger language plpgsql as $$
      begin
        if old.rewards_settled_at is not null and new.rewards_settled_at is distinct from old.rewards_settled_at then
          raise exception 'a settled payment stays settled (docs/payments.md#settled-periods)' using errcode = 'check_violation';
        end if;
        return new;
      end $$`);
    this.addSql(`create trigger "subscription_payment_settled" before update of "rewards_settled_at" on "subscription_payment"
      for each row execute function subscription_payment_settled()`);
  }
}
