import { Migration } from '@mikro-orm/migrations';

/**
 * Audio recognition (modules/recognition): the fingerprints of catalogue tracks (one row per entry; the in-memory
 * index is built from them), and per mix the recognition job's state and the tracks it found.
 */
export class Migration20261127000000_recognition extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "recognition_reference" ("reference_no" serial primary key, "track_id" uuid not null, "seconds" double precision not null, "indexed_at" timestamptz not null)',
    );
    this.addSql('alter table "recognition_reference" add constraint "recognition_reference_track_unique" unique ("track_id")');
    this.addSql(
      'alter table "recognition_reference" add constraint "recognition_reference_track_id_foreign" foreign key ("track_id") references "track" ("id") on delete cascade',
    );
    this.addSql(
      'create table "recognition_fingerprint" ("reference_no" int not null, "hash" int not null, "data" int not null, primary key ("reference_no", "hash", "data"))',
    );
    this.addSql('create index "recognition_fingerprint_hash_idx" on "recognition_fingerprint" ("hash")');
    this.addSql(
      'alter table "recognition_fingerprint" add constraint "recognition_fingerprint_reference_no_foreign" foreign key ("reference_no") references "recognition_reference" ("reference_no") on delete cascade',
    );
    this.addSql(
      'create table "recognition_job" ("mix_id" uuid not null, "state" varchar(10) not null, "fraction" double precision not null default 0, "updated_at" timestamptz not null, primary key ("mix_id"))',
    );
    this.addSql(
      'alter table "recognition_job" add constraint "recognition_job_mix_id_foreign" foreign key ("mix_id") references "mix" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'create table "recognition_result" ("id" serial primary key, "mix_id" uuid not null, "track_id" uuid not null, "start" double precision not null, "end" double precision not null, "confidence" double precision not null)',
    );
    this.addSql('create index "recognition_result_mix_idx" on "recognition_result" ("mix_id")');
    this.addSql(
      'alter table "recognition_result" add constraint "recognition_result_mix_id_foreign" foreign key ("mix_id") references "mix" ("id") on delete cascade',
    );
    this.addSql(
      'alter table "recognition_result" add constraint "recognition_result_track_id_foreign" foreign key ("track_id") references "track" ("id") on delete cascade',
    );
  }
}
