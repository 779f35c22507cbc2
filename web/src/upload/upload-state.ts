import { TRACKLIST_MAX, TRACKLIST_MIN } from '@mixcrate/api/domain';
import { readStored, removeStored, writeStored } from '../lib/storage';

/**
 * The upload wizard's state kept in localStorage (keys as in docs/upload.md#stored-progress), so every step survives a
 * reload: the form of step 1, the draft mix's id, the typed rows, the lookup's options, the confirmed tracklist and
 * the payment markers.
 */
export const UploadKeys = {
  /** Step 1: title, genre and the cropped cover (a data: URL of the 400x400 JPEG). */
  form: 'upload_form',
  mixId: 'mix_id',
  /** Step 2's rows as typed. */
  tracks: 'tracks',
  /** The lookup's options per row (step 2 to 3); the home page clears it with the other recognition entries. */
  options: 'recognition_response',
  /** Step 3's choice per row, as made. */
  choices: 'upload_choices',
  /** The tracklist the server kept at step 3. */
  confirmed: 'append_response',
  /** Which way the mix is being paid for: 'created' once a checkout session exists. */
  session: 'session',
  subscription: 'subscription',
  code: 'code',
} as const;

export interface UploadForm {
  title: string;
  genre: string;
  cover: string | null;
}

export interface TrackRow {
  artist: string;
  title: string;
  /** Set when the row was filled from recognition (the catalogue track found in the mix). */
  recognisedTrackId?: string;
}

export interface TrackOption {
  id: string;
  title: string;
  creators: string[];
  label: string | null;
  coverUrl: string | null;
}

function readJson<T>(key: string, isValid: (value: unknown) => value is T): T | null {
  const raw = readStored(key);
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isValid(value) ? value : null;
  } catch {
    return null;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isForm = (value: unknown): value is UploadForm =>
  isRecord(value) &&
  typeof value.title === 'string' &&
  typeof value.genre === 'string' &&
  (value.cover === null || (typeof value.cover === 'string' && value.cover.startsWith('data:image/jpeg')));

const isRow = (value: unknown): value is TrackRow =>
  isRecord(value) &&
  typeof value.artist === 'string' &&
  typeof value.title === 'string' &&
  (value.recognisedTrackId === undefined || typeof value.recognisedTrackId === 'string');

const isRows = (value: unknown): value is TrackRow[] => Array.isArray(value) && value.length <= TRACKLIST_MAX && value.every(isRow);

const isOption = (value: unknown): value is TrackOption =>
  isRecord(value) &&
  typeof value.id === 'string' &&
  typeof value.title === 'string' &&
  Array.isArray(value.creators) &&
  value.creators.every((name) => typeof name === 'string');

const isOptions = (value: unknown): value is TrackOption[][] =>
  Array.isArray(value) && value.every((slot) => Array.isArray(slot) && slot.every(isOption));

export const EMPTY_FORM: UploadForm = { title: '', genre: '', cover: null };

export const readForm = (): UploadForm => readJson(UploadKeys.form, isForm) ?? EMPTY_FORM;
export const writeForm = (form: UploadForm): void => writeStored(UploadKeys.form, JSON.stringify(form));

export const readMixId = (): string | null => readStored(UploadKeys.mixId);
/** A new draft: what later steps stored for an earlier one (rows, options, choices, markers) goes, then its id is kept. */
export function startDraft(id: string): void {
  const { form: _form, mixId: _mixId, ...laterSteps } = UploadKeys;
  removeStored(...Object.values(laterSteps));
  writeStored(UploadKeys.mixId, id);
}

export const emptyRows = (count = TRACKLIST_MIN): TrackRow[] => Array.from({ length: count }, () => ({ artist: '', title: '' }));

/** The typed rows, at least the documented five. */
export function readRows(): TrackRow[] {
  const rows = readJson(UploadKeys.tracks, isRows) ?? [];
  return rows.length >= TRACKLIST_MIN ? rows : [...rows, ...emptyRows(TRACKLIST_MIN - rows.length)];
}
export const writeRows = (rows: TrackRow[]): void => writeStored(UploadKeys.tracks, JSON.stringify(rows));

export const readOptions = (): TrackOption[][] | null => readJson(UploadKeys.options, isOptions);
export const writeOptions = (options: TrackOption[][]): void => writeStored(UploadKeys.options, JSON.stringify(options));

export type PaymentMarker = 'code' | 'session' | 'subscription';
export const markPayment = (marker: PaymentMarker): void => writeStored(UploadKeys[marker], 'created');
export const paymentMarked = (marker: PaymentMarker): boolean => readStored(UploadKeys[marker]) === 'created';

export const markConfirmed = (): void => writeStored(UploadKeys.confirmed, 'confirmed');
export const isConfirmed = (): boolean => readStored(UploadKeys.confirmed) !== null;

/** Resetting the upload clears the stored upload keys (docs/upload.md#stored-progress). */
export function resetUploadState(): void {
  removeStored(...Object.values(UploadKeys));
}
