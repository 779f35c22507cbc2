import { ArrayType, defineEntity, p } from '@mikro-orm/core';

/**
 * The search index (derived from mixes, members and tracks; Migration20261222000000_search). Written and read with
 * SQL only; declared here so the schema the entities describe matches the migrations.
 */

/** A normalised word of any document, and how many documents hold it (`df`); its deletion keys are in memory (search-vocabulary.ts). */
export const SearchWord = defineEntity({
  name: 'SearchWord',
  tableName: 'search_word',
  properties: {
    id: p.integer().primary().autoincrement(),
    word: p.string().length(64).unique('search_word_word_unique'),
    df: p.integer().default(0),
  },
  indexes: [
    {
      name: 'search_word_prefix_idx',
      expression: 'create index "search_word_prefix_idx" on "search_word" ("word" varchar_pattern_ops)',
    },
  ],
});

/** One searchable thing: kind 1 a mix, 2 a member, 3 a track; its words (ids) and its text by field (`body`). */
export const SearchDoc = defineEntity({
  name: 'SearchDoc',
  tableName: 'search_doc',
  properties: {
    docNo: p.integer().primary().autoincrement(),
    kind: p.smallint(),
    refId: p.uuid(),
    words: p.type(new ArrayType<number>((item) => Number(item))).columnType('int[]'),
    body: p.json<Record<string, string[]>>(),
    nameKey: p.string().length(300),
  },
  uniques: [{ name: 'search_doc_ref_unique', properties: ['kind', 'refId'] }],
  indexes: [
    {
      name: 'search_doc_name_idx',
      expression: 'create index "search_doc_name_idx" on "search_doc" ("name_key" varchar_pattern_ops, "kind")',
    },
  ],
});

/** Which documents of a kind hold a word. */
export const SearchPosting = defineEntity({
  name: 'SearchPosting',
  tableName: 'search_posting',
  properties: {
    wordId: p.integer().primary(),
    kind: p.smallint().primary(),
    docNo: p.integer().primary(),
  },
});

/** Rows changed since the indexer last ran (filled by triggers). */
export const SearchPending = defineEntity({
  name: 'SearchPending',
  tableName: 'search_pending',
  properties: {
    kind: p.smallint().primary(),
    refId: p.uuid().primary(),
  },
});

export const searchEntities = [SearchWord, SearchDoc, SearchPosting, SearchPending];
