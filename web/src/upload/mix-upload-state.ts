import { mp3Problem } from '@mixcrate/api/rules';
import type { PendingUpload } from './mp3-upload';
import { EMPTY_FORM, type UploadForm } from './upload-state';

/** What a cancelled upload says (docs/upload.md#step-1-mix-upload). */
export const UPLOAD_CANCELLED = 'Upload cancelled';

export type UploadPhase = { name: 'idle' } | { name: 'uploading'; percent: number } | { name: 'finishing' };

/** Step 1 of the upload wizard, as the page shows it. */
export interface MixUploadState {
  /** Title, genre and the cropped cover: what survives a reload. */
  form: UploadForm;
  mp3: File | null;
  mp3Error: string | null;
  coverError: string | null;
  /** An object URL of the image being cropped, while the cropper is open. */
  chosenCover: string | null;
  /** The form's one alert: the missing items, a failure, or 'Upload cancelled'. */
  alert: string | null;
  phase: UploadPhase;
  /** An upload that stopped before the server had it whole (continued by choosing the same file again). */
  pending: PendingUpload | null;
  /** The 'Would you like to start again?' question, asked once when the page opens on an earlier upload. */
  askStartAgain: boolean;
}

export type MixUploadEvent =
  | { type: 'edited'; change: Partial<UploadForm> }
  | { type: 'mp3Chosen'; file: File }
  | { type: 'coverChecked'; problem: string | null }
  | { type: 'coverChosen'; url: string }
  | { type: 'cropped'; cover: string }
  | { type: 'cropClosed'; problem?: string }
  | { type: 'missing'; items: string }
  | { type: 'uploadStarted'; percent: number }
  | { type: 'uploadProgressed'; percent: number }
  | { type: 'finishing' }
  | { type: 'failed'; message: string; pending: PendingUpload | null }
  | { type: 'cleared' }
  | { type: 'cancelled' }
  | { type: 'answered' };

export function initialMixUploadState(stored: { form: UploadForm; pending: PendingUpload | null; hasDraft: boolean }): MixUploadState {
  return {
    form: stored.form,
    mp3: null,
    mp3Error: null,
    coverError: null,
    chosenCover: null,
    alert: null,
    phase: { name: 'idle' },
    pending: stored.pending,
    askStartAgain: stored.hasDraft || stored.pending !== null,
  };
}

/** 'Upload cancelled' and 'Start again': the stored mix id, image, audio, genre and title all go (docs/upload.md#step-1-mix-upload). */
const cleared = (state: MixUploadState): MixUploadState => ({
  ...state,
  form: EMPTY_FORM,
  mp3: null,
  mp3Error: null,
  coverError: null,
  pending: null,
});

/** The upload's state machine: every change step 1 goes through, without effects (the hook runs those). */
export function mixUploadReducer(state: MixUploadState, event: MixUploadEvent): MixUploadState {
  switch (event.type) {
    case 'edited':
      return { ...state, form: { ...state.form, ...event.change }, alert: null };
    case 'mp3Chosen': {
      const problem = mp3Problem(event.file);
      return { ...state, mp3: problem ? null : event.file, mp3Error: problem, alert: null };
    }
    case 'coverChecked':
      return { ...state, coverError: event.problem };
    case 'coverChosen':
      return { ...state, chosenCover: event.url };
    case 'cropped':
      return { ...state, form: { ...state.form, cover: event.cover }, alert: null, chosenCover: null };
    case 'cropClosed':
      return { ...state, chosenCover: null, coverError: event.problem ?? state.coverError };
    case 'missing':
      return { ...state, alert: event.items };
    case 'uploadStarted':
      return { ...state, alert: null, phase: { name: 'uploading', percent: event.percent } };
    case 'uploadProgressed':
      return state.phase.name === 'uploading' ? { ...state, phase: { name: 'uploading', percent: event.percent } } : state;
    case 'finishing':
      return { ...state, phase: { name: 'finishing' } };
    case 'failed':
      return { ...state, phase: { name: 'idle' }, pending: event.pending, alert: event.message };
    case 'cleared':
      return cleared(state);
    case 'cancelled':
      return { ...cleared(state), phase: { name: 'idle' }, alert: UPLOAD_CANCELLED };
    case 'answered':
      return { ...state, askStartAgain: false };
  }
}
