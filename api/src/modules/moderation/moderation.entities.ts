import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';

/**
 * One moderator or operator action (docs/moderation.md#audit-log): who did what to which thing, why and when. Rows are
 * only ever added; the actor's name is kept beside the id so the line still reads after the member is removed.
 */
export const AuditEntry = defineEntity({
  name: 'AuditEntry',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    actor: () => p.manyToOne(User).nullable().deleteRule('set null'),
    actorName: p.string().length(255),
    action: p.string().length(60),
    targetKind: p.string().length(40),
    targetId: p.string().length(255),
    targetName: p.string().length(255).nullable(),
    reason: p.text().nullable(),
    at: p.datetime(),
  },
  indexes: [{ name: 'audit_entry_at_idx', expression: 'create index "audit_entry_at_idx" on "audit_entry" ("at" desc, "id" desc)' }],
});
export type IAuditEntry = InferEntity<typeof AuditEntry>;

export const QUEUE_STATUSES = ['open', 'approved', 'rejected'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

/**
 * Something waiting for a moderator (docs/moderation.md#queue). `kind` names the module that decides it (a creator
 * claim, a disputed claim, a reference recording that matches another owner's track, ...); `subjectId` is that
 * module's row. New kinds need no new table: a module registers a handler for its kind with the moderation service.
 */
export const ModerationItem = defineEntity({
  name: 'ModerationItem',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    kind: p.string().length(40),
    subjectId: p.string().length(255),
    summary: p.text(),
    /** Links the moderator should open (a claim's evidence). */
    links: p.json<string[]>(),
    /** Who raised it (the claimant, the uploader of the reference); null when the member is gone. */
    raisedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    status: p.enum(QUEUE_STATUSES).default('open'),
    openedAt: p.datetime(),
    decidedAt: p.datetime().nullable(),
    decidedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    reason: p.text().nullable(),
  },
  indexes: [
    {
      name: 'moderation_item_status_idx',
      expression: 'create index "moderation_item_status_idx" on "moderation_item" ("status", "opened_at", "id")',
    },
    {
      name: 'moderation_item_subject_open_unique',
      expression:
        'create unique index "moderation_item_subject_open_unique" on "moderation_item" ("kind", "subject_id") where "status" = \'open\'',
    },
  ],
});
export type IModerationItem = InferEntity<typeof ModerationItem>;

export const moderationEntities = [AuditEntry, ModerationItem];
