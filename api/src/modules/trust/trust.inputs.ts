import { z } from 'zod';
import { idOrNull, moment, pageNumber, pageSize, text } from '../../shared/inputs.js';
import {
  MODERATION_REASON_MAX,
  NOTICE_TEXT_MAX,
  REPORT_NOTE_MAX,
  STRIKE_LIMIT_BOUNDS,
  STRIKE_WINDOW_DAYS_BOUNDS,
} from '../../shared/rules.js';
import { REPORT_REASONS, REPORT_TARGET_KINDS } from './trust.entities.js';
import { trustInputMessages as messages } from './trust.errors.js';

/** The most rows one page of reports, held mixes or suspended members holds. */
export const TRUST_PAGE_MAX = 100;
/** The most months the transparency report covers at once. */
export const TRANSPARENCY_MONTHS_MAX = 36;

export const TRUST_ACTIONS = [
  'dismiss',
  'hide_mix',
  'remove_mix',
  'warn',
  'suspend_member',
  'restore',
  'remove',
  'remove_and_strike',
] as const;

/** An enum's value as GraphQL sends it (lower case) or as REST clients may write it (any case). */
const word = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z
    .string({ error: message })
    .max(40, message)
    .transform((value) => value.trim().toLowerCase())
    .pipe(z.enum(values, { error: message }));

const reason = text(MODERATION_REASON_MAX)
  .nullish()
  .transform((value) => value || null);

export const pageInput = z.object({
  page: pageNumber(0)
    .nullish()
    .transform((value) => value ?? 0),
  first: pageSize(TRUST_PAGE_MAX, 25)
    .nullish()
    .transform((value) => value ?? 25),
});

export const reportInput = z.object({
  targetKind: word(REPORT_TARGET_KINDS, messages.targetKind),
  targetId: idOrNull,
  reason: word(REPORT_REASONS, messages.reason),
  note: text(REPORT_NOTE_MAX)
    .nullish()
    .transform((value) => value || null),
});

export const noticeInput = z.object({
  mixId: idOrNull,
  trackId: idOrNull,
  text: text(NOTICE_TEXT_MAX).pipe(z.string().min(1, messages.text)),
});

export const counterNoticeInput = z.object({
  noticeId: idOrNull,
  text: text(NOTICE_TEXT_MAX).pipe(z.string().min(1, messages.counterText)),
});

export const noticeIdInput = z.object({ noticeId: idOrNull });

export const trustActionInput = z.object({
  itemId: idOrNull,
  action: word(TRUST_ACTIONS, messages.action),
  reason,
  suspendedUntil: moment('suspendedUntil').nullish(),
});

export const restoreInput = z.object({ id: idOrNull, reason });

const whole = (bounds: { min: number; max: number }, message: string) =>
  z.coerce.number({ error: message }).int(message).min(bounds.min, message).max(bounds.max, message);

export const strikePolicyInput = z.object({
  strikeLimit: whole(STRIKE_LIMIT_BOUNDS, messages.strikeLimit),
  windowDays: whole(STRIKE_WINDOW_DAYS_BOUNDS, messages.windowDays),
  reason,
});

export const transparencyInput = z.object({
  months: z.coerce
    .number({ error: messages.months(TRANSPARENCY_MONTHS_MAX) })
    .int(messages.months(TRANSPARENCY_MONTHS_MAX))
    .min(1, messages.months(TRANSPARENCY_MONTHS_MAX))
    .max(TRANSPARENCY_MONTHS_MAX, messages.months(TRANSPARENCY_MONTHS_MAX))
    .nullish()
    .transform((value) => value ?? 12),
});
