import { defineEntity, p } from '@mikro-orm/core';

/**
 * The lookup index (derived from the tracks; `CatalogueService.reindex` rebuilds it). Written and read with SQL only;
 * declared here so the schema the entities describe matches the migrations.
 */

/** A normalised catalogue word and how many indexed tracks hold it (`df`, document frequency). */
export const CatalogueWord = defineEntity({
  name: 'CatalogueWord',
  tableName: 'catalogue_word',
  properties: {
    id: p.integer().primary().autoincrement(),
    word: p.string().length(64).unique('catalogue_word_word_unique'),
    df: p.integer().default(0),
  },
});

/** A deletion variant of a word (SymSpell): typed words find the catalogue words within their typo budget through it. */
export const CatalogueWordKey = defineEntity({
  name: 'CatalogueWordKey',
  tableName: 'catalogue_word_key',
  properties: {
    key: p.string().length(64).primary(),
    wordId: p.integer().primary(),
  },
});

/** Which indexed tracks (by `track.search_no`) hold a word. */
export const CataloguePosting = defineEntity({
  name: 'CataloguePosting',
  tableName: 'catalogue_posting',
  properties: {
    wordId: p.integer().primary(),
    trackNo: p.integer().primary(),
  },
});

export const catalogueEntities = [CatalogueWord, CatalogueWordKey, CataloguePosting];
