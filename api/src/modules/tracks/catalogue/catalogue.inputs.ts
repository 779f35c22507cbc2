/**
 * What the catalogue accepts: lookup rows (typed by uploaders) and imported tracks. Text that PostgreSQL cannot store
 * (NUL, a surrogate half without its partner) is refused with a message naming the field, never a 500; lengths are
 * bounded.
 */
import { InvalidInputError } from '../../../shared/errors.js';
import { whyUnstorable } from '../../../shared/inputs.js';
import type { Creator, TrackLabel } from '../track.entity.js';

/** Every row needs both artist and track title (docs/upload.md#step-2-add-tracks). */
export const MISSING_FIELDS = 'Missing: Empty fields';
/** At most 30 tracks per upload (docs/upload.md#tracklist-rules). */
export const LOOKUP_MAX_ROWS = 30;
/** Longest artist or title a lookup row may carry (the catalogue's titles hold 300). */
export const LOOKUP_MAX_LENGTH = 300;

/** A typed row of a tracklist. */
export interface LookupRow {
  artist: string;
  title: string;
}

/** Text with its runs of white space (newlines, tabs) made one space; numbers as text; anything else empty. */
const textOf = (value: unknown) =>
  typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : typeof value === 'number' ? String(value) : '';

/**
 * Reads the rows of a lookup: a list of 1 to 30 objects with `artist` and `title` (REST `tracks_array`; `name` is
 * taken for `title`, `creators`/`artists` for `artist` when they are plain text). A row missing either answers
 * 'Missing: Empty fields' (400).
 */
export function parseLookupRows(input: unknown): LookupRow[] {
  if (!Array.isArray(input)) throw new InvalidInputError('tracks_array must be a list of rows with artist and title');
  if (input.length === 0) throw new InvalidInputError(MISSING_FIELDS);
  if (input.length > LOOKUP_MAX_ROWS) throw new InvalidInputError(`tracks_array must hold at most ${LOOKUP_MAX_ROWS} rows`);
  return input.map((raw, index) => {
    const row = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const artist = textOf(row.artist ?? row.creators ?? row.artists);
    const title = textOf(row.title ?? row.name);
    if (!artist || !title) throw new InvalidInputError(MISSING_FIELDS);
    for (const [field, value] of [
      ['artist', artist],
      ['title', title],
    ] as const) {
      if (value.length > LOOKUP_MAX_LENGTH)
        throw new InvalidInputError(`Row ${index + 1}: ${field} must be at most ${LOOKUP_MAX_LENGTH} characters`);
      const problem = whyUnstorable(value);
      if (problem) throw new InvalidInputError(`Row ${index + 1}: ${field} ${problem}`);
    }
    return { artist, title };
  });
}

/** A catalogue track as an import (or the demo catalogue) gives it. */
export interface CatalogueInput {
  source: string;
  externalId: string;
  title: string;
  creators: Creator[];
  label: TrackLabel | null;
  cover: string | null;
  releaseDate: string | null;
  buy: boolean;
  newRelease: boolean;
  /** A fixed id for a new track (the demo catalogue's stable ids); a random one otherwise. */
  id?: string;
}

/** A row the import refused, and why. */
export class RefusedRow extends Error {}

const LIMITS = { source: 40, externalId: 200, title: 300, name: 200, id: 200, cover: 300, creators: 20 } as const;

function requiredText(value: unknown, field: string, max: number): string {
  const text = textOf(value);
  if (!text) throw new RefusedRow(`${field} is missing`);
  if (text.length > max) throw new RefusedRow(`${field} is longer than ${max} characters`);
  const problem = whyUnstorable(text);
  if (problem) throw new RefusedRow(`${field} ${problem}`);
  return text;
}
const optionalText = (value: unknown, field: string, max: number): string | null =>
  value === undefined || value === null || textOf(value) === '' ? null : requiredText(value, field, max);

function flag(value: unknown, field: string): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (typeof value === 'boolean') return value;
  const text = String(value).trim().toLowerCase();
  if (['true', '1', 'yes', 'y'].includes(text)) return true;
  if (['false', '0', 'no', 'n'].includes(text)) return false;
  throw new RefusedRow(`${field} must be true or false`);
}

function date(value: unknown): string | null {
  const text = optionalText(value, 'release_date', 10);
  if (text === null) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const parsed = match ? new Date(`${text}T00:00:00Z`) : null;
  if (!parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== text)
    throw new RefusedRow('release_date must be a date as YYYY-MM-DD');
  const year = Number(match?.[1]);
  if (year < 1900 || year > 2100) throw new RefusedRow('release_date must be between 1900 and 2100');
  return text;
}

/** Splits "A & B, C" into creators (only when the row gives plain names). */
const splitNames = (names: string) =>
  names
    .split(/\s*[;|]\s*/)
    .map((name) => name.trim())
    .filter(Boolean);

function creatorsOf(row: Record<string, unknown>): Creator[] {
  const raw = row.creators ?? row.artists ?? row.artist;
  let list: { id: string | null; name: string }[];
  if (Array.isArray(raw)) {
    list = raw.map((item, index) => {
      if (typeof item === 'string') return { id: null, name: requiredText(item, `creators[${index}]`, LIMITS.name) };
      const creator = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
      return {
        id: optionalText(creator.id, `creators[${index}].id`, LIMITS.id),
        name: requiredText(creator.name, `creators[${index}].name`, LIMITS.name),
      };
    });
  } else {
    const names = splitNames(requiredText(raw, 'artists', 1000));
    const ids = textOf(row.artist_ids ?? row.creator_ids) ? splitNames(textOf(row.artist_ids ?? row.creator_ids)) : [];
    if (ids.length > 0 && ids.length !== names.length) throw new RefusedRow('artist_ids must give one id per artist');
    list = names.map((name, index) => ({
      id: ids[index] ? requiredText(ids[index], 'artist_ids', LIMITS.id) : null,
      name: requiredText(name, 'artists', LIMITS.name),
    }));
  }
  if (list.length === 0) throw new RefusedRow('artists is missing');
  if (list.length > LIMITS.creators) throw new RefusedRow(`at most ${LIMITS.creators} artists per track`);
  return list;
}

function labelOf(row: Record<string, unknown>): TrackLabel | null {
  const raw = row.label;
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const label = raw as Record<string, unknown>;
    return { id: optionalText(label.id, 'label.id', LIMITS.id), name: requiredText(label.name, 'label.name', LIMITS.name) };
  }
  const name = optionalText(raw ?? row.label_name, 'label', LIMITS.name);
  return name === null ? null : { id: optionalText(row.label_id, 'label_id', LIMITS.id), name };
}

/** Reads one imported row (a JSON object, or a CSV record by column name); throws RefusedRow with the reason. */
export function parseCatalogueRow(raw: unknown): CatalogueInput {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new RefusedRow('not an object');
  const row = raw as Record<string, unknown>;
  return {
    source: requiredText(row.source, 'source', LIMITS.source),
    externalId: requiredText(row.external_id ?? row.externalId ?? row.id, 'external_id', LIMITS.externalId),
    title: requiredText(row.title, 'title', LIMITS.title),
    creators: creatorsOf(row),
    label: labelOf(row),
    cover: optionalText(row.cover, 'cover', LIMITS.cover),
    releaseDate: date(row.release_date ?? row.releaseDate),
    buy: flag(row.buy, 'buy'),
    newRelease: flag(row.new_release ?? row.newRelease, 'new_release'),
  };
}
