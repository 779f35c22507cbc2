import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 28: a ledger line's per-track split, written with the line at settlement (docs/payments.md#per-track-lines).
 * Lines settled before this have no tracks; they are not worked out afterwards, since settled periods never change.
 * Like the lines, what a track line pays and for which line stays as written (a removed track only loses its link).
 */
export class Migration20261225000000_reward_tracks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "reward_allocation_track" ("id" uuid not null, "allocation_id" uuid not null, "track_id" uuid null, "track_title" varchar(300) not null, "amount_cents" int not null, "listened_seconds" double precision not null default 0, primary key ("id"))',
    );
    this.addSql('create index "reward_allocation_track_allocation_idx" on "reward_allocation_track" ("allocation_id")');
    this.addSql('create index "reward_allocation_track_track_idx" on "reward_allocation_track" ("track_id")');
    this.addSql(
      'alter table "reward_allocation_track" add constraint "reward_allocation_track_allocation_id_foreign" foreign key ("allocation_id") references "reward_allocation" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "reward_allocation_track" add constraint "reward_allocation_track_track_id_foreign" foreign key ("track_id") references "track" ("id") on delete set null',
    );
    this.addSql(`create trigger "reward_allocation_track_settled" before update of "allocation_id", "track_title", "amount_cents", "listened_seconds"
      on "reward_allocation_track" for each row execute function reward_allocation_settled()`);
  }
}
