import type { IMix } from './mix.entity.js';

/** Single-purchase hosting lasts this long from publishing (docs/payments.md#hosting). */
export const HOSTING_MONTHS = 12;
/** The "New" badge: published within this many days. */
export const NEW_UPLOAD_DAYS = 7;

const DAY_MS = 86_400_000;

type Dates = Pick<IMix, 'publishedAt' | 'expiresAt'>;

/** When hosting that starts at `publishedAt` ends: the same day and time, HOSTING_MONTHS later (end of month if shorter). */
export function hostingEnds(publishedAt: Date): Date {
  const end = new Date(publishedAt);
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + HOSTING_MONTHS);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}

export const isExpired = (mix: Pick<IMix, 'expiresAt'>, now = new Date()): boolean =>
  !!mix.expiresAt && mix.expiresAt.getTime() <= now.getTime();

/** Whole days of hosting left (rounded up, 0 once expired); null while unpublished or when hosting never ends. */
export function expiringInDays(mix: Dates, now = new Date()): number | null {
  if (!mix.publishedAt || !mix.expiresAt) return null;
  return Math.max(0, Math.ceil((mix.expiresAt.getTime() - now.getTime()) / DAY_MS));
}

export const isNewUpload = (mix: Dates, now = new Date()): boolean =>
  !!mix.publishedAt && now.getTime() - mix.publishedAt.getTime() < NEW_UPLOAD_DAYS * DAY_MS;
