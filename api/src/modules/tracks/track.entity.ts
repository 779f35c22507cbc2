import { randomUUID } from 'node:crypto';
import { ArrayType, defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { TRACK_TITLE_MAX } from '../../shared/rules.js';

export interface Creator {
  id: string | null;
  name: string;
}
export interface TrackLabel {
  id: string | null;
  name: string;
}

/** A catalogue track: from the catalogue, or typed by hand when the uploader's entry matched nothing (isManual). */
export const Track = defineEntity({
  name: 'Track',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    title: p.string().length(TRACK_TITLE_MAX),
    creators: p.json<Creator[]>(),
    label: p.json<TrackLabel>().nullable(),
    cover: p.string().length(300).nullable(),
    isManual: p.boolean().default(false),
    buy: p.boolean().default(false),
    newRelease: p.boolean().default(false),
    /** The day the track came out ('YYYY-MM-DD'), when the catalogue knows it. */
    releaseDate: p.date().nullable(),
    /** How often the track was chosen for a tracklist, saved or played here; lookup uses it only to break near ties. */
    popularity: p.integer().default(0),
    /** A small number for the lookup index's postings (set by the database). */
    searchNo: p.integer().autoincrement().unique('track_search_no_unique').lazy(),
    /** The catalogue vocabulary ids of the track's words; null until indexed (manual tracks never are). */
    searchWords: p
      .type(new ArrayType<number>((item) => Number(item)))
      .columnType('int[]')
      .nullable()
      .lazy(),
    /** Where an imported track came from (e.g. 'beatport', '123'): unique together; a second import updates the track. */
    externalSource: p.string().length(40).nullable(),
    externalId: p.string().length(200).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ name: 'track_external_unique', properties: ['externalSource', 'externalId'] }],
  indexes: [
    {
      name: 'track_search_pending_idx',
      expression: 'create index "track_search_pending_idx" on "track" ("search_no") where "search_words" is null and not "is_manual"',
    },
  ],
});
export type ITrack = InferEntity<typeof Track>;
