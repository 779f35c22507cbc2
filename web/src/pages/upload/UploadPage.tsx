import { useMutation } from '@apollo/client/react';
import { GENRE_CODES, GENRES } from '@mixcrate/api/domain';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { TextField } from '../../components/TextField';
import { DeactivateMixDocument } from '../../gql/graphql';
import {
  blobToDataUrl,
  COVER_RULE,
  CreateMixError,
  coverProblem,
  createDraftMix,
  dataUrlToBlob,
  missingItems,
} from '../../upload/create-mix';
import {
  discardPendingUpload,
  type Mp3UploadHandle,
  mp3Problem,
  type PendingUpload,
  readPendingUpload,
  terminateUpload,
  uploadMp3,
} from '../../upload/mp3-upload';
import { Overlay } from '../../upload/Overlay';
import { ProgressBar } from '../../upload/ProgressBar';
import shared from '../../upload/Upload.module.css';
import { UploadSteps } from '../../upload/UploadSteps';
import {
  EMPTY_FORM,
  isConfirmed,
  readForm,
  readMixId,
  readOptions,
  resetUploadState,
  startDraft,
  type UploadForm,
  writeForm,
} from '../../upload/upload-state';
import { CoverCrop } from './CoverCrop';
import styles from './UploadPage.module.css';

/** SPEC §8: what a cancelled upload says. */
export const UPLOAD_CANCELLED = 'Upload cancelled';

type Phase = { name: 'idle' } | { name: 'uploading'; percent: number } | { name: 'finishing' };

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

/**
 * SPEC §2 step 1, /upload: title, MP3, cover crop, genre, 'Upload mix'. The MP3 goes through tus (a reload or a
 * dropped connection continues it), then create-mix makes the draft from it; the form survives a reload.
 */
export function UploadPage() {
  const ids = useId();
  const navigate = useNavigate();
  const [form, setForm] = useState<UploadForm>(readForm);
  const [mp3, setMp3] = useState<File | null>(null);
  const [mp3Error, setMp3Error] = useState<string | null>(null);
  const [coverError, setCoverError] = useState<string | null>(null);
  const [chosenCover, setChosenCover] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const [pending, setPending] = useState<PendingUpload | null>(readPendingUpload);
  const [askStartAgain, setAskStartAgain] = useState(() => readMixId() !== null || readPendingUpload() !== null);
  const upload = useRef<Mp3UploadHandle | null>(null);
  const finishing = useRef<{ abort: AbortController; mp3Url: string } | null>(null);
  const cancelled = useRef(false);
  const coverUrl = useCoverUrl(form.cover);
  const [deactivateMix] = useMutation(DeactivateMixDocument);

  useEffect(() => writeForm(form), [form]);
  useEffect(() => () => (chosenCover ? URL.revokeObjectURL(chosenCover) : undefined), [chosenCover]);

  const edit = (change: Partial<UploadForm>) => {
    setForm((current) => ({ ...current, ...change }));
    setAlert(null);
  };

  function chooseMp3(file: File | undefined) {
    if (!file) return;
    const problem = mp3Problem(file);
    setMp3Error(problem);
    setMp3(problem ? null : file);
    setAlert(null);
  }

  async function chooseCover(file: File | undefined) {
    if (!file) return;
    const problem = coverProblem(file);
    setCoverError(problem);
    if (problem) return;
    const url = URL.createObjectURL(file);
    if (!(await decodes(url))) {
      URL.revokeObjectURL(url);
      setCoverError(COVER_RULE.invalid);
      return;
    }
    setChosenCover(url);
  }

  async function finishCrop(jpeg: Blob) {
    edit({ cover: await blobToDataUrl(jpeg) });
    setChosenCover(null);
  }

  /** SPEC §4 'Upload cancelled' and 'Start again': the stored mix id, image, audio, genre and title all go. */
  function clearEverything() {
    resetUploadState();
    setForm(EMPTY_FORM);
    setMp3(null);
    setMp3Error(null);
    setCoverError(null);
    setPending(null);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (phase.name !== 'idle') return;
    const missing = missingItems({
      cover: form.cover !== null,
      title: form.title.trim() !== '',
      mp3: mp3 !== null,
      genre: form.genre !== '',
    });
    if (missing || !mp3 || !form.cover) {
      setAlert(missing);
      return;
    }
    setAlert(null);
    cancelled.current = false;
    setPhase({ name: 'uploading', percent: pending?.percent ?? 0 });
    const handle = uploadMp3(mp3, (percent) =>
      setPhase((current) => (current.name === 'uploading' ? { name: 'uploading', percent } : current)),
    );
    upload.current = handle;
    try {
      const mp3Url = await handle.done;
      if (cancelled.current) return;
      setPhase({ name: 'finishing' });
      const abort = new AbortController();
      finishing.current = { abort, mp3Url };
      const mixId = await createDraftMix({ cover: dataUrlToBlob(form.cover), title: form.title, genre: form.genre, mp3Url }, abort.signal);
      finishing.current = null;
      startDraft(mixId);
      navigate('/upload/track-list');
    } catch (error) {
      finishing.current = null;
      if (cancelled.current) return;
      setPhase({ name: 'idle' });
      setPending(readPendingUpload());
      setAlert(error instanceof CreateMixError || error instanceof Error ? error.message : 'The upload failed. Please try again.');
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
    clearEverything();
    setPhase({ name: 'idle' });
    setAlert(UPLOAD_CANCELLED);
  }

  async function startAgain() {
    const mixId = readMixId();
    setAskStartAgain(false);
    await discardPendingUpload();
    if (mixId) await deactivateMix({ variables: { mixId } }).catch(() => undefined);
    clearEverything();
  }

  function carryOn() {
    setAskStartAgain(false);
    if (readMixId()) navigate(nextStepOfDraft());
  }

  const busy = phase.name !== 'idle';
  const percent = phase.name === 'uploading' ? phase.percent : 100;
  const showFinishing = phase.name === 'finishing' || (phase.name === 'uploading' && phase.percent >= 100);

  return (
    <AppShell label="Upload a mix" columns={1}>
      <div className={shared.page}>
        <UploadSteps current={1} />
        <h1 className={shared.title}>Upload your mix</h1>
        {pending && !askStartAgain && !busy ? (
          <p className={shared.notice} role="status">
            Your upload of {pending.fileName} stopped at {pending.percent}%. Choose the same file again and press Upload mix to continue
            from there.
          </p>
        ) : null}
        <form className={shared.section} onSubmit={submit} noValidate aria-labelledby={`${ids}-form`}>
          <h2 id={`${ids}-form`} className={shared.visuallyHidden}>
            Your mix
          </h2>
          <TextField
            label="Mix title"
            name="title"
            value={form.title}
            maxLength={120}
            onChange={(event) => edit({ title: event.target.value })}
          />

          <div className={styles.fileRow}>
            <input
              id={`${ids}-mp3`}
              type="file"
              accept="audio/mpeg,.mp3"
              className={`${shared.visuallyHidden} ${styles.fileInput}`}
              aria-describedby={`${ids}-mp3-name`}
              onChange={(event) => {
                chooseMp3(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
            <label htmlFor={`${ids}-mp3`} className={buttons.secondary}>
              {mp3 ? 'Change MP3' : 'Choose MP3'}
            </label>
            <p id={`${ids}-mp3-name`} className={mp3Error ? styles.error : styles.fileName} role={mp3Error ? 'alert' : undefined}>
              {mp3Error ?? mp3?.name ?? 'No MP3 chosen (max. 300MB)'}
            </p>
          </div>

          <div className={styles.coverRow}>
            {coverUrl ? (
              <img src={coverUrl} alt="Your cover" width={120} height={120} className={styles.coverPreview} />
            ) : (
              <div className={styles.coverPlaceholder} aria-hidden="true">
                400×400
              </div>
            )}
            <div className={styles.fileRow}>
              <input
                id={`${ids}-cover`}
                type="file"
                accept=".jpg,.jpeg,.png,.gif,.webp,image/jpeg,image/png,image/gif,image/webp"
                className={`${shared.visuallyHidden} ${styles.fileInput}`}
                aria-describedby={`${ids}-cover-hint`}
                onChange={(event) => {
                  void chooseCover(event.target.files?.[0]);
                  event.target.value = '';
                }}
              />
              <label htmlFor={`${ids}-cover`} className={buttons.secondary}>
                {form.cover ? 'Change cover image' : 'Choose cover image'}
              </label>
              <p id={`${ids}-cover-hint`} className={coverError ? styles.error : styles.fileName} role={coverError ? 'alert' : undefined}>
                {coverError ?? '.jpg, .png, .gif or .webp, up to 5MB'}
              </p>
            </div>
          </div>

          {chosenCover ? (
            <CoverCrop
              source={chosenCover}
              onCancel={() => setChosenCover(null)}
              onDone={(jpeg) => void finishCrop(jpeg)}
              onInvalid={() => {
                setChosenCover(null);
                setCoverError(COVER_RULE.invalid);
              }}
            />
          ) : null}

          <fieldset className={styles.genres}>
            <legend className={styles.legend}>Select a genre:</legend>
            <div className={styles.genreList}>
              {GENRE_CODES.map((code) => (
                <label key={code} className={styles.genre}>
                  <input type="radio" name="genre" value={code} checked={form.genre === code} onChange={() => edit({ genre: code })} />
                  <span>{GENRES[code]}</span>
                </label>
              ))}
            </div>
          </fieldset>

          {alert ? (
            <div className={shared.alert} role="alert">
              {alert}
            </div>
          ) : null}
          <div className={shared.actions}>
            <button type="submit" className={buttons.primary} disabled={busy || chosenCover !== null}>
              Upload mix
            </button>
          </div>
        </form>
      </div>

      <Overlay open={busy} title={showFinishing ? 'Finishing up...' : 'Uploading your mix'}>
        <p className={shared.percent} aria-live="polite">
          {percent}%
        </p>
        <ProgressBar percent={percent} label="Upload progress" />
        <div className={shared.actions}>
          <button type="button" className={buttons.secondary} onClick={() => void cancel()}>
            Cancel
          </button>
        </div>
      </Overlay>

      <Overlay open={askStartAgain && !busy} title="Would you like to start again?" onDismiss={carryOn}>
        <p className={shared.text}>
          {readMixId()
            ? 'You have a mix that is not published yet.'
            : `Your upload of ${pending?.fileName ?? 'an MP3'} stopped at ${pending?.percent ?? 0}%.`}
        </p>
        <div className={shared.actions}>
          <button type="button" className={buttons.secondary} onClick={carryOn}>
            Continue
          </button>
          <button type="button" className={buttons.primary} onClick={() => void startAgain()}>
            Start again
          </button>
        </div>
      </Overlay>
    </AppShell>
  );
}
