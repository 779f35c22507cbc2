import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';

/**
 * One sign-in of a member, named by its tokens' `sid`: the token is only the carrier, this row decides whether it still
 * counts. Ending a session deletes its row; the table's trigger (Migration20261205000000_sessions) then tells every
 * instance, which forgets it and closes its sockets.
 */
export const MemberSession = defineEntity({
  name: 'MemberSession',
  tableName: 'member_session',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade').index('member_session_user_idx'),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** When a request last used it, to the accuracy sessions.service.ts keeps (it is not written on every request). */
    lastSeenAt: p.datetime(),
    /** The token's own expiry: the most a session lasts, however busy. */
    expiresAt: p.datetime(),
  },
});
export type IMemberSession = InferEntity<typeof MemberSession>;
