import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';

export const Follow = defineEntity({
  name: 'Follow',
  properties: {
    follower: () => p.manyToOne(User).primary().deleteRule('cascade'),
    followee: () => p.manyToOne(User).primary().deleteRule('cascade').index('follow_followee_idx'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IFollow = InferEntity<typeof Follow>;
