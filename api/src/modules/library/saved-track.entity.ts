import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Track } from '../tracks/track.entity.js';
import { User } from '../users/user.entity.js';

export const SavedTrack = defineEntity({
  name: 'SavedTrack',
  properties: {
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
    track: () => p.manyToOne(Track).primary().deleteRule('cascade'),
    savedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ISavedTrack = InferEntity<typeof SavedTrack>;
