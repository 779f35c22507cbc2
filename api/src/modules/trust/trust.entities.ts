import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Mix } from '../mixes/mix.entity.js';
import { Track } from '../tracks/track.entity.js';
import { User } from '../users/user.entity.js';

export const REPORT_TARGET_KINDS = ['mix', 'member'] as const;
export type ReportTargetKind = (typeof REPORT_TARGET_KINDS)[number];
export const REPORT_REASONS = ['copyright', 'abuse', 'spam', 'impersonation', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
/** open until a moderator decides; dismissed (nothing done) or upheld (`outcome` says what was done). */
export const REPORT_STATUSES = ['open', 'dismissed', 'upheld'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
/** open (the mix hidden), countered (the owner answered), restored, removed (upheld, with or without a strike). */
export const NOTICE_STATUSES = ['open', 'countered', 'restored', 'removed'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];

/**
 * A member's report of a mix or a member (docs/trust.md#reports). One open report per reporter and target; the
 * reporter reads what became of it.
 */
export const ContentReport = defineEntity({
  name: 'ContentReport',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    reporter: () => p.manyToOne(User).deleteRule('cascade'),
    targetKind: p.enum(REPORT_TARGET_KINDS),
    targetId: p.uuid(),
    reason: p.enum(REPORT_REASONS),
    note: p.text().nullable(),
    status: p.enum(REPORT_STATUSES).default('open'),
    /** What the moderator did (hide_mix, remove_mix, warn, suspend_member, ...); null while open or dismissed. */
    outcome: p.string().length(40).nullable(),
    createdAt: p.datetime(),
    decidedAt: p.datetime().nullable(),
  },
  indexes: [
    {
      name: 'content_report_open_unique',
      expression:
        'create unique index "content_report_open_unique" on "content_report" ("reporter_id", "target_kind", "target_id") where "status" = \'open\'',
    },
    {
      name: 'content_report_target_idx',
      expression: 'create index "content_report_target_idx" on "content_report" ("target_id", "created_at")',
    },
    {
      name: 'content_report_reporter_idx',
      expression: 'create index "content_report_reporter_idx" on "content_report" ("reporter_id", "created_at" desc)',
    },
  ],
});
export type IContentReport = InferEntity<typeof ContentReport>;

/**
 * A verified creator's or label's copyright notice on a mix that plays their track (docs/trust.md#notices): the mix
 * is hidden while it is open; the owner may answer with a counter-notice; a moderator decides.
 */
export const CopyrightNotice = defineEntity({
  name: 'CopyrightNotice',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    filer: () => p.manyToOne(User).nullable().deleteRule('set null'),
    mix: () => p.manyToOne(Mix).deleteRule('cascade'),
    track: () => p.manyToOne(Track).nullable().deleteRule('set null'),
    /** The creator or label name the filer holds and speaks for. */
    claimedName: p.string().length(255),
    text: p.text(),
    status: p.enum(NOTICE_STATUSES).default('open'),
    counterText: p.text().nullable(),
    counteredAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    decidedAt: p.datetime().nullable(),
  },
  indexes: [
    {
      name: 'copyright_notice_mix_idx',
      expression: 'create index "copyright_notice_mix_idx" on "copyright_notice" ("mix_id", "created_at")',
    },
    {
      name: 'copyright_notice_filer_idx',
      expression: 'create index "copyright_notice_filer_idx" on "copyright_notice" ("filer_id", "created_at" desc)',
    },
  ],
});
export type ICopyrightNotice = InferEntity<typeof CopyrightNotice>;

/** An upheld copyright notice counted against the mix's owner (docs/trust.md#repeat-infringers). */
export const CopyrightStrike = defineEntity({
  name: 'CopyrightStrike',
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    member: () => p.manyToOne(User).deleteRule('cascade'),
    notice: () => p.manyToOne(CopyrightNotice).nullable().deleteRule('set null'),
    at: p.datetime(),
  },
  indexes: [
    {
      name: 'copyright_strike_member_idx',
      expression: 'create index "copyright_strike_member_idx" on "copyright_strike" ("member_id", "at")',
    },
  ],
});
export type ICopyrightStrike = InferEntity<typeof CopyrightStrike>;

/** The operators' numbers for repeat infringers: one row (id 1), absent until an operator sets them (defaults apply). */
export const StrikePolicySetting = defineEntity({
  name: 'StrikePolicySetting',
  tableName: 'strike_policy',
  properties: {
    id: p.integer().primary().autoincrement(false),
    strikeLimit: p.integer(),
    windowDays: p.integer(),
    updatedAt: p.datetime(),
  },
});

export const trustEntities = [ContentReport, CopyrightNotice, CopyrightStrike, StrikePolicySetting];
