import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';
import { STAFF_ROLES } from './role.policy.js';

/** A member who runs or moderates the service; every other member is a plain member and has no row. */
export const MemberRole = defineEntity({
  name: 'MemberRole',
  properties: {
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
    role: p.enum(STAFF_ROLES),
    grantedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type IMemberRole = InferEntity<typeof MemberRole>;
