import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from '../users/user.entity.js';

export const CLAIM_SUBJECTS = ['creator', 'label'] as const;
export type ClaimSubject = (typeof CLAIM_SUBJECTS)[number];
export const CLAIM_STATUSES = ['pending', 'approved', 'rejected', 'revoked'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/**
 * A member's claim to be a catalogue creator or label (docs/creators.md#claims). `subjectKey` is the creator's key as
 * the rewards ledger writes it (creatorKey), or `label:` and the label's key. An approved claim makes the member the
 * holder: at most one approved claim per subject (the partial unique index), so money and reference audio follow one
 * member. A claim that wins a dispute turns the previous holder's claim to revoked.
 */
export const CreatorClaim = defineEntity({
  name: 'CreatorClaim',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(User).deleteRule('cascade').index('creator_claim_user_idx'),
    subject: p.enum(CLAIM_SUBJECTS),
    subjectKey: p.string().length(300),
    subjectName: p.string().length(255),
    evidence: p.json<string[]>(),
    note: p.text(),
    status: p.enum(CLAIM_STATUSES).default('pending'),
    createdAt: p.datetime().onCreate(() => new Date()),
    decidedAt: p.datetime().nullable(),
    reason: p.text().nullable(),
  },
  indexes: [
    {
      name: 'creator_claim_held_unique',
      expression:
        'create unique index "creator_claim_held_unique" on "creator_claim" ("subject", "subject_key") where "status" = \'approved\'',
    },
    {
      name: 'creator_claim_pending_unique',
      expression:
        'create unique index "creator_claim_pending_unique" on "creator_claim" ("user_id", "subject", "subject_key") where "status" = \'pending\'',
    },
  ],
});
export type ICreatorClaim = InferEntity<typeof CreatorClaim>;
