import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';

/** Something that happened to a member (someone followed or unfollowed them, a moderator decided their creator claim), kept until they have read it and after. */
export const Notification = defineEntity({
  name: 'Notification',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    recipient: () => p.manyToOne(User).deleteRule('cascade'),
    actor: () => p.manyToOne(User).deleteRule('cascade').index('notification_actor_idx'),
    kind: p.string().length(20),
    /** What the notice is about beyond its actor (the creator or label name of a claim decision). */
    detail: p.string().length(255).nullable(),
    createdAt: p.datetime(),
    readAt: p.datetime().nullable(),
  },
  indexes: [
    {
      name: 'notification_recipient_idx',
      expression: 'create index "notification_recipient_idx" on "notification" ("recipient_id", "created_at" desc, "id" desc)',
    },
    {
      name: 'notification_unread_idx',
      expression: 'create index "notification_unread_idx" on "notification" ("recipient_id") where "read_at" is null',
    },
  ],
});
export type INotification = InferEntity<typeof Notification>;
