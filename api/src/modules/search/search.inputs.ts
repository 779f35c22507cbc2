/**
 * What a search accepts (docs/search.md#calls): the typed text (1 to 100 characters once trimmed; NUL and unpaired
 * surrogates refused), which kinds, a page (GraphQL: `first` after a cursor; REST: numbered pages from 0), and the
 * mixes' filters.
 */
import { z } from 'zod';
import { decodeCursor } from '../../shared/cursor.js';
import { GENRE_CODES } from '../../shared/domain.js';
import { pageNumber, pageSize, storable } from '../../shared/inputs.js';
import { SEARCH_QUERY_MAX } from '../../shared/rules.js';

/** Ranked results a search looks through: no page reaches past them. */
export const SEARCH_MAX_RESULTS = 200;
export const SEARCH_PAGE_SIZE = 20;
export const SEARCH_MAX_PAGE_SIZE = 50;
/** Suggestions as you type, over all kinds (docs/search.md#suggestions). */
export const SUGGESTIONS_MAX = 8;

export const SEARCH_KINDS = ['mix', 'member', 'track'] as const;
export const MIX_LENGTHS = ['short', 'medium', 'long'] as const;
/** Mix lengths in seconds: short under 30 minutes, long over 90. */
export const LENGTH_SECONDS = {
  short: { min: null, max: 30 * 60 },
  medium: { min: 30 * 60, max: 90 * 60 },
  long: { min: 90 * 60, max: null },
} as const;

const queryText = storable(
  z
    .string({ error: 'q must be text' })
    .transform((value) => value.replace(/\s+/g, ' ').trim())
    .pipe(
      z.string().min(1, 'q must hold something to search for').max(SEARCH_QUERY_MAX, `q must be at most ${SEARCH_QUERY_MAX} characters`),
    ),
);

const kinds = z
  .array(z.enum(SEARCH_KINDS, { error: `type must be one of ${SEARCH_KINDS.join(', ')}` }), { error: 'types must be a list' })
  .max(100, 'types holds at most 100 items')
  .nullish()
  .transform((list) => (list && list.length > 0 ? [...new Set(list)] : [...SEARCH_KINDS]));

const filters = z.object({
  genre: z
    .enum(['all', ...GENRE_CODES], { error: 'genre must be one of the genres' })
    .nullish()
    .transform((genre) => (genre === 'all' ? null : genre)),
  withinKm: z
    .number({ error: 'withinKm must be a whole number from 1 to 20000' })
    .int('withinKm must be a whole number from 1 to 20000')
    .min(1, 'withinKm must be a whole number from 1 to 20000')
    .max(20_000, 'withinKm must be a whole number from 1 to 20000')
    .nullish(),
  length: z.enum(MIX_LENGTHS, { error: `length must be one of ${MIX_LENGTHS.join(', ')}` }).nullish(),
});

const isOffset = (key: string[]) => key.length === 1 && /^\d{1,4}$/.test(key[0] ?? '');

export const searchInput = z
  .object({
    q: queryText,
    types: kinds,
    first: pageSize(SEARCH_MAX_PAGE_SIZE, SEARCH_PAGE_SIZE),
    after: z.string({ error: 'after must be a cursor' }).max(200, 'Invalid cursor: pass a cursor of an earlier page').nullish(),
  })
  .and(filters)
  .transform(({ after, ...rest }) => ({ ...rest, offset: after ? Number(decodeCursor(after, isOffset)[0]) + 1 : 0 }));

/** REST: `type` one kind or all, `page` from 0. */
export const restSearchInput = z
  .object({
    q: queryText,
    type: z.enum(['all', ...SEARCH_KINDS], { error: `type must be all or one of ${SEARCH_KINDS.join(', ')}` }).default('all'),
    page: pageNumber(0, SEARCH_MAX_RESULTS / SEARCH_PAGE_SIZE).default(0),
    genre: filters.shape.genre,
    within_km: z.coerce.number().pipe(filters.shape.withinKm.unwrap().unwrap()).optional(),
    length: filters.shape.length,
  })
  .transform(({ q, type, page, genre, within_km, length }) => ({
    q,
    types: type === 'all' ? [...SEARCH_KINDS] : [type],
    first: SEARCH_PAGE_SIZE,
    offset: page * SEARCH_PAGE_SIZE,
    genre,
    withinKm: within_km,
    length,
  }));

export const suggestInput = z.object({ q: queryText });

export type SearchRequest = z.output<typeof searchInput>;
