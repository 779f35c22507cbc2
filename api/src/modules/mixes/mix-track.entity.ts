import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Track } from '../tracks/track.entity.js';
import { Mix } from './mix.entity.js';

/** One entry of a mix's tracklist, in order, with where it plays in the mix. */
export const MixTrack = defineEntity({
  name: 'MixTrack',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    mix: () => p.manyToOne(Mix).deleteRule('cascade'),
    track: () => p.manyToOne(Track).deleteRule('cascade').index('mix_track_track_idx'),
    position: p.integer(),
    startTime: p.double().$type<number>().runtimeType('number').nullable(),
    endTime: p.double().$type<number>().runtimeType('number').nullable(),
  },
  uniques: [{ properties: ['mix', 'position'], name: 'mix_track_mix_position_unique' }],
});
export type IMixTrack = InferEntity<typeof MixTrack>;
