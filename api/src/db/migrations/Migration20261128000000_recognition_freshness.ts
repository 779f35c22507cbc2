import { Migration } from '@mikro-orm/migrations';

/**
 * Re-recognition when references arrive (modules/recognition): each mix's recognition remembers the newest reference
 * its index held, so mixes recognised before newer references can be recognised again.
 */
export class Migration20261128000000_recognition_freshness extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table "recognition_job" add column "references_at" timestamptz null');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "recognition_job" drop column "references_at"');
  }
}
