import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Track } from '../tracks/track.entity.js';
import { Mix } from './mix.entity.js';

/**
 * A published mix's tracklist as it stood from `createdAt` until the next version: version 1 is the tracklist it was
 * published with, each edit after publishing adds the next. Rows are only ever added; listens name the version they
 * were heard under and settlement pays its tracks (docs/payments.md#tracklist-versions).
 */
export const TracklistVersion = defineEntity({
  name: 'TracklistVersion',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    mix: () => p.manyToOne(Mix).deleteRule('cascade'),
    number: p.integer(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['mix', 'number'], name: 'tracklist_version_mix_number_unique' }],
});
export type ITracklistVersion = InferEntity<typeof TracklistVersion>;

/** One entry of a tracklist version, as mix_track held it then. */
export const TracklistVersionEntry = defineEntity({
  name: 'TracklistVersionEntry',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    version: () => p.manyToOne(TracklistVersion).deleteRule('cascade'),
    track: () => p.manyToOne(Track).deleteRule('cascade').index('tracklist_version_entry_track_idx'),
    position: p.integer(),
    startTime: p.double().$type<number>().runtimeType('number').nullable(),
    endTime: p.double().$type<number>().runtimeType('number').nullable(),
  },
  uniques: [{ properties: ['version', 'position'], name: 'tracklist_version_entry_version_position_unique' }],
});
export type ITracklistVersionEntry = InferEntity<typeof TracklistVersionEntry>;
