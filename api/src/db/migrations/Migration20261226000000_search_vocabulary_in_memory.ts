import { Migration } from '@mikro-orm/migrations';

/**
 * The search vocabulary's deletion keys are kept in each API instance's memory (search-vocabulary.ts), built from
 * `search_word` when first needed, so their table goes: writing it was most of what building the index cost.
 */
export class Migration20261226000000_search_vocabulary_in_memory extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop table "search_word_key"');
  }
}
