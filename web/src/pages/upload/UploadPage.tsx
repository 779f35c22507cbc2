import { useQuery } from '@apollo/client/react';
import { GENRE_CODES, GENRES } from '@mixcrate/api/domain';
import { COVER_RULE, MIX_TITLE_MAX, MP3_RULE } from '@mixcrate/api/rules';
import { type FormEvent, useId } from 'react';
import { Link } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { Spinner } from '../../components/Spinner';
import { SquareCropper } from '../../components/SquareCropper';
import { TextField } from '../../components/TextField';
import { MyUploadBlockDocument } from '../../gql/graphql';
import { formatDate } from '../../lib/format';
import { Overlay } from '../../upload/Overlay';
import { ProgressBar } from '../../upload/ProgressBar';
import shared from '../../upload/Upload.module.css';
import { UploadSteps } from '../../upload/UploadSteps';
import { useMixUpload } from '../../upload/use-mix-upload';
import styles from './UploadPage.module.css';

/**
 * Step 1's gate (docs/trust.md#repeat-infringers): a member whose uploads are blocked by upheld copyright strikes
 * is told why and until when instead of the form. If the question fails the form shows; the API refuses the upload anyway.
 */
export function UploadPage() {
  const { data, loading } = useQuery(MyUploadBlockDocument, { fetchPolicy: 'cache-and-network' });
  const block = data?.myUploadBlock;
  if (loading && !data)
    return (
      <AppShell label="Upload a mix" columns={1}>
        <Spinner label="Loading" />
      </AppShell>
    );
  if (!block) return <UploadForm />;
  return (
    <AppShell label="Upload a mix" columns={1}>
      <div className={shared.page}>
        <h1 className={shared.title}>Uploads are blocked</h1>
        <section className={shared.section} aria-label="Why uploads are blocked">
          <p role="alert">{block.message}</p>
          <p>
            {block.strikes} copyright {block.strikes === 1 ? 'strike was' : 'strikes were'} upheld against your mixes. You can upload again
            from {formatDate(block.until)}. Notices on your mixes and their history are under <Link to="/notices">My notices</Link>.
          </p>
        </section>
      </div>
    </AppShell>
  );
}

/**
 * Step 1, /upload (docs/upload.md#step-1-mix-upload): title, MP3, cover crop, genre, 'Upload mix', the progress overlay and the start-again
 * question. What happens on each is useMixUpload's.
 */
function UploadForm() {
  const ids = useId();
  const upload = useMixUpload();
  const { form, mp3, mp3Error, coverError, coverUrl, chosenCover, alert, pending, askStartAgain, busy, percent } = upload;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void upload.submit();
  }

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
            maxLength={MIX_TITLE_MAX}
            onChange={(event) => upload.edit({ title: event.target.value })}
          />

          <div className={styles.fileRow}>
            <input
              id={`${ids}-mp3`}
              type="file"
              accept={MP3_RULE.accept}
              className={`${shared.visuallyHidden} ${styles.fileInput}`}
              aria-describedby={`${ids}-mp3-name`}
              onChange={(event) => {
                upload.chooseMp3(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
            <label htmlFor={`${ids}-mp3`} className={buttons.secondary}>
              {mp3 ? 'Change MP3' : 'Choose MP3'}
            </label>
            <p id={`${ids}-mp3-name`} className={mp3Error ? styles.error : styles.fileName} role={mp3Error ? 'alert' : undefined}>
              {mp3Error ?? mp3?.name ?? MP3_RULE.hint}
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
                accept={COVER_RULE.accept}
                className={`${shared.visuallyHidden} ${styles.fileInput}`}
                aria-describedby={`${ids}-cover-hint`}
                onChange={(event) => {
                  void upload.chooseCover(event.target.files?.[0]);
                  event.target.value = '';
                }}
              />
              <label htmlFor={`${ids}-cover`} className={buttons.secondary}>
                {form.cover ? 'Change cover image' : 'Choose cover image'}
              </label>
              <p id={`${ids}-cover-hint`} className={coverError ? styles.error : styles.fileName} role={coverError ? 'alert' : undefined}>
                {coverError ?? COVER_RULE.hint}
              </p>
            </div>
          </div>

          {chosenCover ? (
            <SquareCropper
              source={chosenCover}
              label="Crop your cover image"
              onCancel={upload.cancelCrop}
              onDone={(jpeg) => void upload.finishCrop(jpeg)}
              onInvalid={upload.refuseCrop}
            />
          ) : null}

          <fieldset className={styles.genres}>
            <legend className={styles.legend}>Select a genre:</legend>
            <div className={styles.genreList}>
              {GENRE_CODES.map((code) => (
                <label key={code} className={styles.genre}>
                  <input
                    type="radio"
                    name="genre"
                    value={code}
                    checked={form.genre === code}
                    onChange={() => upload.edit({ genre: code })}
                  />
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

      <Overlay open={busy} title={upload.showFinishing ? 'Finishing up...' : 'Uploading your mix'}>
        <p className={shared.percent} aria-live="polite">
          {percent}%
        </p>
        <ProgressBar percent={percent} label="Upload progress" />
        <div className={shared.actions}>
          <button type="button" className={buttons.secondary} onClick={() => void upload.cancel()}>
            Cancel
          </button>
        </div>
      </Overlay>

      <Overlay open={askStartAgain && !busy} title="Would you like to start again?" onDismiss={upload.carryOn}>
        <p className={shared.text}>
          {upload.hasDraft
            ? 'You have a mix that is not published yet.'
            : `Your upload of ${pending?.fileName ?? 'an MP3'} stopped at ${pending?.percent ?? 0}%.`}
        </p>
        <div className={shared.actions}>
          <button type="button" className={buttons.secondary} onClick={upload.carryOn}>
            Continue
          </button>
          <button type="button" className={buttons.primary} onClick={() => void upload.startAgain()}>
            Start again
          </button>
        </div>
      </Overlay>
    </AppShell>
  );
}
