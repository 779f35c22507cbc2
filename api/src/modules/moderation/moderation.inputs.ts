import { z } from 'zod';
import { idOrNull, pageNumber, pageSize, text } from '../../shared/inputs.js';
import { MEMBER_REFERENCE_MAX, MODERATION_REASON_MAX } from '../../shared/rules.js';
import { QUEUE_STATUSES } from './moderation.entities.js';
import { moderationInputMessages as messages } from './moderation.errors.js';

/** The most rows one page of the queue or the audit log holds. */
export const MODERATION_PAGE_MAX = 100;

const page = {
  page: pageNumber(0)
    .nullish()
    .transform((value) => value ?? 0),
  first: pageSize(MODERATION_PAGE_MAX, 25)
    .nullish()
    .transform((value) => value ?? 25),
};

export const queueInput = z.object({
  status: z
    .enum(QUEUE_STATUSES, { error: messages.status })
    .nullish()
    .transform((value) => value ?? 'open'),
  ...page,
});

export const auditInput = z.object(page);

export const decisionInput = z.object({
  itemId: idOrNull,
  decision: z.enum(['approve', 'reject'], { error: messages.decision }),
  reason: text(MODERATION_REASON_MAX)
    .nullish()
    .transform((value) => value || null),
});

export const moderatorInput = z.object({
  member: text(MEMBER_REFERENCE_MAX).pipe(z.string().min(1, messages.member)),
  grant: z.boolean(),
  reason: text(MODERATION_REASON_MAX)
    .nullish()
    .transform((value) => value || null),
});
