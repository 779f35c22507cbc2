import { z } from 'zod';
import { decodeCursor, isTimestampAndId, isUuid } from '../../shared/cursor.js';
import { FEED_MAX_RADIUS_KM, GENRE_CODES, TRACKLIST_MAX, TRACKLIST_MIN } from '../../shared/domain.js';
import {
  type CursorWindow,
  cursorPage,
  idOrNull,
  pageNumber,
  pageSize,
  parseInput,
  type RawInput,
  storable,
  text,
} from '../../shared/inputs.js';
import { MIX_TITLE_MAX, TRACK_CREATOR_MAX, TRACK_TITLE_MAX } from '../../shared/rules.js';
import { locationInput } from '../users/index.js';
import { mixInputMessages as messages } from './mix.errors.js';

/** The input schema of every mixes operation, and the page rules of its lists. */

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;
/** The latest time into a mix a tracklist entry may name when the mix's duration is unknown (two days). */
export const TRACK_TIME_MAX_SECONDS = 2 * 24 * 60 * 60;

export const mixIdInput = idOrNull;

/** How many tracklist versions one read answers, newest first (docs/payments.md#tracklist-versions). */
export const TRACKLIST_VERSIONS_DEFAULT = 20;
export const TRACKLIST_VERSIONS_MAX = 50;
export const tracklistVersionsInput = z.object({
  mixId: mixIdInput,
  first: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : (value ?? undefined)),
    pageSize(TRACKLIST_VERSIONS_MAX, TRACKLIST_VERSIONS_DEFAULT),
  ),
});

export const genreInput = z.enum(GENRE_CODES, { error: `Unknown genre; use one of: ${GENRE_CODES.join(', ')}` });

export const newDraftInput = z.object({
  ownerId: z.string(),
  // The upload form names a missing title in its list of missing items (docs/upload.md#step-1-mix-upload).
  title: storable(z.string().trim().min(1, 'Title').max(MIX_TITLE_MAX)),
  genre: genreInput,
  cover: z.string(),
  mp3: z.string(),
  audioBytes: z.number().int().min(0).default(0),
  durationSeconds: z.number().positive().nullish(),
  bitrate: z.number().int().positive().nullish(),
});
export type NewDraft = RawInput<typeof newDraftInput>;

// A blank cover is no cover; anything else must be a web address an <img> can load.
const coverUrl = text(300)
  .refine((value) => value === '' || (URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol)), {
    message: messages.coverUrl,
  })
  .transform((value) => value || null);

const tracklistEntry = (position: number) => {
  const missing = messages.missingFields(position);
  return z.object({
    title: storable(z.string({ error: missing }).trim().min(1, missing).max(TRACK_TITLE_MAX)),
    creators: z
      .array(storable(z.string({ error: missing }).trim().max(TRACK_CREATOR_MAX)), { error: missing })
      .max(20)
      .transform((names) => names.filter(Boolean))
      .refine((names) => names.length > 0, missing),
    catalogueTrackId: z.unknown().optional(),
    isManual: z.boolean().nullish(),
    label: text(200).nullish(),
    cover: coverUrl.nullish(),
    startTime: seconds(messages.startTime(position)),
    endTime: seconds(messages.endTime(position)),
  });
};

/** Seconds into a mix: a finite number from 0 (at most two days: no mix is longer), or none. */
const seconds = (message: string) => z.number({ error: message }).min(0, message).max(TRACK_TIME_MAX_SECONDS, message).nullish();

/** One entry of a tracklist as the uploader sends it (each skin maps its own wire names onto this). */
export type TracklistEntry = RawInput<ReturnType<typeof tracklistEntry>>;

/**
 * 5 to 30 entries, in order; an entry names a catalogue track unless it is manual or names none. Start and end times,
 * where given, are in order: an entry ends after it starts, and no entry starts before an earlier one (the mix's
 * duration is the command's to check).
 */
export const tracklistInput = z
  .array(z.unknown(), { error: messages.tracklistShape })
  .superRefine((entries, ctx) => {
    if (entries.length < TRACKLIST_MIN || entries.length > TRACKLIST_MAX)
      ctx.addIssue({ code: 'custom', message: messages.tracklistSize(entries.length) });
  })
  .transform((entries, ctx) =>
    entries.map((raw, index) => {
      const entry = tracklistEntry(index + 1).safeParse(raw ?? {});
      if (!entry.success) {
        ctx.addIssue({ code: 'custom', message: entry.error.issues[0]?.message ?? messages.missingFields(index + 1) });
        return z.NEVER;
      }
      const { catalogueTrackId, isManual } = entry.data;
      const named = !isManual && catalogueTrackId !== undefined && catalogueTrackId !== null && catalogueTrackId !== '';
      // An id that is no UUID names no track of ours (the command answers unknown UUIDs the same way).
      if (named && !isUuid(catalogueTrackId)) {
        ctx.addIssue({ code: 'custom', message: messages.unknownTrack(index + 1) });
        return z.NEVER;
      }
      return {
        ...entry.data,
        startTime: entry.data.startTime ?? null,
        endTime: entry.data.endTime ?? null,
        catalogueTrackId: named ? (catalogueTrackId as string) : null,
      };
    }),
  )
  .superRefine((entries, ctx) => {
    let previousStart: number | null = null;
    entries.forEach((entry, index) => {
      if (entry.startTime !== null && entry.endTime !== null && entry.endTime <= entry.startTime)
        ctx.addIssue({ code: 'custom', message: messages.endBeforeStart(index + 1) });
      if (entry.startTime !== null) {
        if (previousStart !== null && entry.startTime < previousStart)
          ctx.addIssue({ code: 'custom', message: messages.startsGoBack(index + 1) });
        previousStart = entry.startTime;
      }
    });
  });
export type Tracklist = z.output<typeof tracklistInput>;

export const feedFilterInput = z.object({
  genre: z
    .enum(['all', ...GENRE_CODES], { error: `Unknown genre; use all or one of: ${GENRE_CODES.join(', ')}` })
    .nullish()
    .transform((genre) => genre ?? 'all'),
  // REST sends the slider's value as a number or its text.
  radiusKm: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value),
    z
      .number({ error: messages.radius })
      .min(0, messages.radius)
      .max(FEED_MAX_RADIUS_KM, messages.radius)
      .nullish()
      .transform((radius) => radius ?? FEED_MAX_RADIUS_KM),
  ),
  from: locationInput.nullish(),
});
export type FeedFilter = RawInput<typeof feedFilterInput>;

export const byUserInput = z.object({
  userName: text(100),
  excludeMixId: idOrNull,
});

/**
 * A page of mixes: GraphQL asks by cursor (`first`/`after` or `last`/`before`), the REST paths by number (`page`
 * from 0, with an optional `limit`).
 */
export type MixPageRequest = { first?: unknown; after?: unknown; last?: unknown; before?: unknown } | { page: unknown; limit?: unknown };

const byCursor = cursorPage(MAX_PAGE_SIZE, (cursor) => decodeCursor(cursor, isTimestampAndId));
const numberedPage = z
  .object({ page: pageNumber(0), limit: pageSize(MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE) })
  .transform(({ page, limit }): MixPaging => ({ size: limit, backward: false, cursor: null, offset: page * limit }));

/** A window of a mix list; `cursor` is the sort key of the row the page starts after (or, backward, ends before). */
export interface MixPaging extends CursorWindow<string[]> {
  offset: number;
}

export function parseMixPage(request: MixPageRequest): MixPaging {
  if ('page' in request) return parseInput(numberedPage, { page: request.page ?? 0, limit: request.limit ?? undefined });
  return { ...parseInput(byCursor, request), offset: 0 };
}
