import { z } from 'zod';
import { isUuid } from './cursor.js';
import { InvalidInputError } from './errors.js';

/**
 * The one way an operation's input is read: its zod schema parses the raw value, and a failure becomes a 400 whose
 * message is the schema's own (the documented words where it has them) or, where the schema gave none, one that names the
 * field. Services receive the parsed, typed value and never check shapes by hand.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const generated = new Set<string>();
  const result = schema.safeParse(value, {
    error: (issue) => {
      const message = describeIssue(issue);
      generated.add(message);
      return message;
    },
  });
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'The input';
  const namesNoField = generated.has(issue.message) || Object.values<string>(UNSTORABLE).includes(issue.message);
  throw new InvalidInputError(namesNoField ? `${field} ${issue.message}` : issue.message);
}

/** What a skin hands a service for an object schema: the same fields, each still unchecked. */
export type RawInput<S extends z.ZodType> = { [K in keyof z.input<S>]?: unknown };

type Issue = Parameters<z.core.$ZodErrorMap>[0];

function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}`;
    case 'too_big':
      return `must be at most ${issue.maximum}${unitOf(issue.origin)}`;
    case 'too_small':
      return `must be at least ${issue.minimum}${unitOf(issue.origin)}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return `is not a valid ${issue.format}`;
    case 'unrecognized_keys':
      return `has unknown fields: ${issue.keys.join(', ')}`;
    default:
      return 'is not valid';
  }
}

const unitOf = (origin: string) => (origin === 'string' ? ' characters' : origin === 'array' ? ' items' : '');

// A surrogate half without its partner is not text: UTF-8 cannot encode it, so PostgreSQL's json refuses it.
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why PostgreSQL could not store a text as given (parseInput puts the field's name before these). */
export const UNSTORABLE = {
  nul: 'contains a NUL character',
  surrogate: 'contains an unpaired surrogate (not valid Unicode)',
} as const;

/** Why PostgreSQL could not store the text, or null when it can. */
export function whyUnstorable(value: string): string | null {
  if (value.includes('\u0000')) return UNSTORABLE.nul;
  if (UNPAIRED_SURROGATE.test(value)) return UNSTORABLE.surrogate;
  return null;
}

export const isStorableText = (value: string): boolean => whyUnstorable(value) === null;

/** A schema's text, refused (with `message`, or with why, after the field's name) when PostgreSQL could not store it. */
export const storable = <S extends z.ZodType<string>>(schema: S, message?: string) =>
  schema.superRefine((value, ctx) => {
    const problem = whyUnstorable(value);
    if (problem) ctx.addIssue({ code: 'custom', message: message ?? problem });
  });

/** Trimmed, storable text of at most `max` characters. */
export const text = (max: number) => storable(z.string().trim().max(max));

/** An id this server handed out (a UUID), or null for anything else: no such thing exists, so callers answer "not found". */
export const idOrNull = z.unknown().transform((value): string | null => (isUuid(value) ? value : null));

/** A numbered page as the documented paths send it (text or a number), from `from`, bounded so no offset overflows. */
export const pageNumber = (from: 0 | 1, max = 100_000) =>
  z.coerce
    .number({ error: `page must be a whole number from ${from}` })
    .int(`page must be a whole number from ${from}`)
    .min(from, `page must be a whole number from ${from}`)
    .max(max, `page must be at most ${max.toLocaleString('en')}`);

/** How many items a page holds (GraphQL's `first`, or a REST `limit`). */
export const pageSize = (max: number, fallback: number) =>
  z
    .number({ error: `first must be a whole number from 1 to ${max}` })
    .int(`first must be a whole number from 1 to ${max}`)
    .min(1, `first must be a whole number from 1 to ${max}`)
    .max(max, `first must be a whole number from 1 to ${max}`)
    .default(fallback);

/**
 * A page asked for by cursor (Relay style): `first` items after the cursor `after`, or the `last` items just before the
 * cursor `before` (backward paging); either cursor may be left out to start from that end. Mixing the directions
 * (`first` with `last`, `after` with `before`, `first` with `before`, `last` with `after`) is refused.
 */
export const cursorPage = <Key>(maxSize: number, decode: (cursor: string) => Key) => {
  const cursor = (name: string) =>
    z
      .string({ error: `${name} must be a cursor` })
      .max(200, 'Invalid cursor: pass a cursor of an earlier page')
      .nullish();
  const size = (name: string) =>
    z
      .number({ error: `${name} must be a whole number from 1 to ${maxSize}` })
      .int(`${name} must be a whole number from 1 to ${maxSize}`)
      .min(1, `${name} must be a whole number from 1 to ${maxSize}`)
      .max(maxSize, `${name} must be a whole number from 1 to ${maxSize}`)
      .nullish();
  return z
    .object({ first: size('first'), after: cursor('after'), last: size('last'), before: cursor('before') })
    .superRefine(({ first, after, last, before }, ctx) => {
      const forward = isGiven(first) || isGiven(after);
      const backward = isGiven(last) || isGiven(before);
      if (forward && backward) {
        ctx.addIssue({
          code: 'custom',
          message: 'Page one way: pass first (with after) to page forward, or last (with before) to page backward, not both',
        });
      }
    })
    .transform(({ first, after, last, before }): CursorWindow<Key> => {
      const backward = isGiven(last) || isGiven(before);
      const cursor = backward ? before : after;
      return { size: (backward ? last : first) ?? CURSOR_PAGE_DEFAULT_SIZE, backward, cursor: cursor ? decode(cursor) : null };
    });
};

/** How many items a cursor page holds when asked for neither `first` nor `last` (the cost limit assumes it too). */
export const CURSOR_PAGE_DEFAULT_SIZE = 20;

const isGiven = (value: unknown) => value !== null && value !== undefined;

/**
 * Which part of a list a page holds: the `size` items after `cursor` in the list's order (forward), or the `size` items
 * just before it (backward); a null cursor starts at that end of the list.
 */
export interface CursorWindow<Key> {
  size: number;
  backward: boolean;
  cursor: Key | null;
}

// Strict ISO 8601 date-time: a calendar date, a time, and a zone (Z or an offset), as JavaScript and PostgreSQL agree on.
const ISO_MOMENT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/;
/** The earliest and latest moments any timestamp here may name: nothing on this service happened before 2000. */
const EARLIEST_MOMENT = Date.UTC(2000, 0, 1);
const LATEST_MOMENT = Date.UTC(2200, 0, 1);

function momentOf(value: string | number | Date): Date | null {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return Number.isInteger(value) ? new Date(value) : null;
  const match = ISO_MOMENT.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = match.map((part) => part);
  // Date.parse rolls 2000-02-30 over into March; a calendar date must exist as written.
  const calendar = new Date(0);
  calendar.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  const exists =
    calendar.getUTCFullYear() === Number(year) && calendar.getUTCMonth() === Number(month) - 1 && calendar.getUTCDate() === Number(day);
  if (!exists || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59 || Number(offsetHours) > 23 || Number(offsetMinutes) > 59)
    return null;
  return new Date(value);
}

/**
 * A moment as clients send it: strict ISO 8601 text with a zone, or epoch milliseconds (as text or a number), from
 * 2000 to 2200; anything else is a 400 that says so. GraphQL's DateTimeISO scalar has already parsed its text into a
 * Date, which is held to the same range.
 */
export const moment = (field: string) =>
  z
    .union([z.string(), z.number(), z.date()], { error: `${field} must be a date (ISO 8601 with a time zone, or epoch milliseconds)` })
    .transform((value, ctx) => {
      const date = momentOf(typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value);
      if (!date || Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: 'custom', message: `${field} must be a date (ISO 8601 with a time zone, or epoch milliseconds)` });
        return z.NEVER;
      }
      if (date.getTime() < EARLIEST_MOMENT || date.getTime() > LATEST_MOMENT) {
        ctx.addIssue({ code: 'custom', message: `${field} must be a date between 2000 and 2200` });
        return z.NEVER;
      }
      return date;
    });
