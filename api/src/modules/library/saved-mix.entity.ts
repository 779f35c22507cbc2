import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Mix } from '../mixes/mix.entity.js';
import { User } from '../users/user.entity.js';

export const SavedMix = defineEntity({
  name: 'SavedMix',
  properties: {
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
    mix: () => p.manyToOne(Mix).primary().deleteRule('cascade').index('saved_mix_mix_idx'),
    savedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ISavedMix = InferEntity<typeof SavedMix>;
