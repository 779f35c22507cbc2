import { Migration } from '@mikro-orm/migrations';

/**
 * Realtime (issue 17): a listen's last sign of life (its start or latest heartbeat), whether its silence was already
 * announced to subscribers, and the follow notifications members keep.
 */
export class Migration20261129000000_realtime extends Migration {
  override async up(): Promise<void> {
    // Listens from before heartbeats: alive at their start, and silent long ago (nobody is told they expired).
    this.addSql(
      'alter table "listen" add column "alive_at" timestamptz null, add column "silence_announced" boolean not null default true',
    );
    this.addSql('update "listen" set "alive_at" = "started_at"');
    this.addSql('alter table "listen" alter column "alive_at" set not null, alter column "silence_announced" set default false');
    this.addSql('create index "listen_live_idx" on "listen" ("mix_id", "alive_at") where "ended_at" is null and "user_id" is not null');
    this.addSql(
      'create index "listen_unannounced_silence_idx" on "listen" ("alive_at") where "ended_at" is null and "user_id" is not null and not "silence_announced"',
    );
    this.addSql(
      'create table "notification" ("id" uuid not null, "recipient_id" uuid not null, "actor_id" uuid not null, "kind" varchar(20) not null, "created_at" timestamptz not null, "read_at" timestamptz null, primary key ("id"))',
    );
    this.addSql('create index "notification_recipient_idx" on "notification" ("recipient_id", "created_at" desc, "id" desc)');
    this.addSql('create index "notification_unread_idx" on "notification" ("recipient_id") where "read_at" is null');
    this.addSql('create index "notification_actor_idx" on "notification" ("actor_id")');
    this.addSql(
      'alter table "notification" add constraint "notification_recipient_id_foreign" foreign key ("recipient_id") references "app_user" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "notification" add constraint "notification_actor_id_foreign" foreign key ("actor_id") references "app_user" ("id") on delete cascade',
    );
  }
}
