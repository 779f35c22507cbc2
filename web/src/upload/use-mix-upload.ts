import { useMutation } from '@apollo/client/react';
import { COVER_RULE, imageProblem, missingUploadItems } from '@mixcrate/api/rules';
import { useEffect, useMemo, useReducer, useRef } from 'react';
import { useNavigate } from 'react-router';
import { DeactivateMixDocument } from '../gql/graphql';
import { blobToDataUrl, createDraftMix, dataUrlToBlob } from './create-mix';
import { initialMixUploadState, type MixUploadState, mixUploadReducer } from './mix-upload-state';
import { discardPendingUpload, type Mp3UploadHandle, readPendingUpload, terminateUpload, uploadMp3 } from './mp3-upload';
import { isConfirmed, readForm, readMixId, readOptions, resetUploadState, startDraft, type UploadForm, writeForm } from './upload-state';

/** Where an upload left with a draft continues: the furthest step its stored state reached. */
function nextStepOfDraft(): string {
  if (isConfirmed()) return '/upload/payment';
  if (readOptions()) return '/upload/confirm';
  return '/upload/track-list';
}

/** The cropped cover, shown from the stored data: URL through an object URL (the page's policy loads no data: images). */
function useCoverUrl(cover: string | null): string | null {
  const url = useMemo(() => (cover ? URL.createObjectURL(dataUrlToBlob(cover)) : null), [cover]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

async function decodes(url: string): Promise<boolean> {
  const image = new Image();
  image.src = url;
  return image.decode().then(
    () => true,
    () => false,
  );
}

export interface MixUpload extends MixUploadState {
  /** The cropped cover to show, as an object URL. */
  coverUrl: string | null;
  /** An upload is under way (the progress overlay is open). */
  busy: boolean;
  percent: number;
  /** The MP3 is on the server and the draft is being made: 'Finishing up...'. */
  showFinishing: boolean;
  /** A draft from an earlier upload is stored (the start-again question names it). */
  hasDraft: boolean;
  edit(change: Partial<UploadForm>): void;
  chooseMp3(file: File | undefined): void;
  chooseCover(file: File | undefined): Promise<void>;
  finishCrop(jpeg: Blob): Promise<void>;
  cancelCrop(): void;
  refuseCrop(): void;
  submit(): Promise<void>;
  cancel(): Promise<void>;
  startAgain(): Promise<void>;
  carryOn(): void;
}

/**
 * Step 1's upload (docs/upload.md#step-1-mix-upload): the form (kept through a reload), the file checks, the cover crop, then the MP3 through tus
 * (a reload or a dropped connection continues it) and create-mix making the draft from it; Cancel stops either part
 * and removes what the server holds. The page only shows what this answers.
 */
export function useMixUpload(): MixUpload {
  const navigate = useNavigate();
  const [state, dispatch] = useReducer(mixUploadReducer, undefined, () =>
    initialMixUploadState({ form: readForm(), pending: readPendingUpload(), hasDraft: readMixId() !== null }),
  );
  const upload = useRef<Mp3UploadHandle | null>(null);
  const finishing = useRef<{ abort: AbortController; mp3Url: string } | null>(null);
  const cancelled = useRef(false);
  const coverUrl = useCoverUrl(state.form.cover);
  const [deactivateMix] = useMutation(DeactivateMixDocument);
  const { form, mp3, phase, pending, chosenCover } = state;

  useEffect(() => writeForm(form), [form]);
  useEffect(() => () => (chosenCover ? URL.revokeObjectURL(chosenCover) : undefined), [chosenCover]);

  async function chooseCover(file: File | undefined) {
    if (!file) return;
    const problem = imageProblem(COVER_RULE, file);
    dispatch({ type: 'coverChecked', problem });
    if (problem) return;
    const url = URL.createObjectURL(file);
    if (!(await decodes(url))) {
      URL.revokeObjectURL(url);
      dispatch({ type: 'coverChecked', problem: COVER_RULE.invalid });
      return;
    }
    dispatch({ type: 'coverChosen', url });
  }

  function clearEverything() {
    resetUploadState();
    dispatch({ type: 'cleared' });
  }

  async function submit() {
    if (phase.name !== 'idle') return;
    const missing = missingUploadItems({
      cover: form.cover !== null,
      title: form.title.trim() !== '',
      mp3: mp3 !== null,
      genre: form.genre !== '',
    });
    if (missing || !mp3 || !form.cover) {
      if (missing) dispatch({ type: 'missing', items: missing });
      return;
    }
    cancelled.current = false;
    dispatch({ type: 'uploadStarted', percent: pending?.percent ?? 0 });
    const handle = uploadMp3(mp3, (percent) => dispatch({ type: 'uploadProgressed', percent }));
    upload.current = handle;
    try {
      const mp3Url = await handle.done;
      if (cancelled.current) return;
      dispatch({ type: 'finishing' });
      const abort = new AbortController();
      finishing.current = { abort, mp3Url };
      const mixId = await createDraftMix({ cover: dataUrlToBlob(form.cover), title: form.title, genre: form.genre, mp3Url }, abort.signal);
      finishing.current = null;
      startDraft(mixId);
      navigate('/upload/track-list');
    } catch (error) {
      finishing.current = null;
      if (cancelled.current) return;
      const message = error instanceof Error ? error.message : 'The upload failed. Please try again.';
      dispatch({ type: 'failed', message, pending: readPendingUpload() });
    }
  }

  async function cancel() {
    cancelled.current = true;
    const stopping = finishing.current;
    finishing.current = null;
    stopping?.abort.abort();
    await upload.current?.cancel();
    upload.current = null;
    // The MP3 had reached the server whole: delete it too (the draft was never written, the request having gone).
    if (stopping) await terminateUpload(stopping.mp3Url);
    resetUploadState();
    dispatch({ type: 'cancelled' });
  }

  async function startAgain() {
    const mixId = readMixId();
    dispatch({ type: 'answered' });
    await discardPendingUpload();
    if (mixId) await deactivateMix({ variables: { mixId } }).catch(() => undefined);
    clearEverything();
  }

  function carryOn() {
    dispatch({ type: 'answered' });
    if (readMixId()) navigate(nextStepOfDraft());
  }

  return {
    ...state,
    coverUrl,
    busy: phase.name !== 'idle',
    percent: phase.name === 'uploading' ? phase.percent : 100,
    showFinishing: phase.name === 'finishing' || (phase.name === 'uploading' && phase.percent >= 100),
    hasDraft: readMixId() !== null,
    edit: (change) => dispatch({ type: 'edited', change }),
    chooseMp3: (file) => {
      if (file) dispatch({ type: 'mp3Chosen', file });
    },
    chooseCover,
    finishCrop: async (jpeg) => dispatch({ type: 'cropped', cover: await blobToDataUrl(jpeg) }),
    cancelCrop: () => dispatch({ type: 'cropClosed' }),
    refuseCrop: () => dispatch({ type: 'cropClosed', problem: COVER_RULE.invalid }),
    submit,
    cancel,
    startAgain,
    carryOn,
  };
}
