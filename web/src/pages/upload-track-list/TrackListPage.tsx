import { useApolloClient, useMutation } from '@apollo/client/react';
import { TRACKLIST_MAX, TRACKLIST_MIN } from '@mixcrate/api/domain';
import { TRACK_CREATOR_MAX, TRACK_TITLE_MAX, TRACKLIST_MISSING_FIELDS } from '@mixcrate/api/rules';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { LookupTracksDocument, SetTracklistDocument } from '../../gql/graphql';
import { Overlay } from '../../upload/Overlay';
import { placeRecognised, rowIsComplete, tracklistEntries } from '../../upload/tracklist';
import shared from '../../upload/Upload.module.css';
import { UploadSteps } from '../../upload/UploadSteps';
import { markConfirmed, readMixId, readRows, type TrackOption, type TrackRow, writeOptions, writeRows } from '../../upload/upload-state';
import { type FoundTrack, RecognitionPanel } from './RecognitionPanel';
import styles from './TrackListPage.module.css';

/** The lookup's two failures, and the missing-fields message with how long it shows (docs/upload.md#step-2-add-tracks, docs/rules.md#timings). */
export const trackListMessages = {
  missing: TRACKLIST_MISSING_FIELDS,
  firstFailure: "We couldn't find any track data - please check your spelling and try again",
  secondFailure: 'Sorry, something went wrong - skip this step',
} as const;
export const MISSING_FIELDS_MS = 3000;

/**
 * Step 2, /upload/track-list (docs/upload.md#step-2-add-tracks): 'Add Tracks (min. 5)', rows of Artist and Track title kept locally as typed and
 * filled from recognition as it finds tracks; 'Search tracks' looks them up (with the mix, so recognised tracks come
 * first) and goes to confirm. A failed lookup offers Try again, a second one Skip (the typed rows as manual tracks).
 */
export function TrackListPage() {
  const mixId = readMixId();
  const navigate = useNavigate();
  const client = useApolloClient();
  const [rows, setRows] = useState<TrackRow[]>(readRows);
  const [missing, setMissing] = useState(false);
  const [searching, setSearching] = useState(false);
  const [failures, setFailures] = useState(0);
  const [skipError, setSkipError] = useState<string | null>(null);
  const [setTracklist, skipping] = useMutation(SetTracklistDocument);
  const missingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => writeRows(rows), [rows]);
  useEffect(() => () => clearTimeout(missingTimer.current), []);

  const onFound = useCallback((found: FoundTrack[]) => setRows((current) => placeRecognised(current, found, TRACKLIST_MAX)), []);

  if (!mixId) return <Navigate to="/upload" replace />;

  const edit = (index: number, field: 'artist' | 'title', value: string) =>
    setRows((current) => current.map((row, at) => (at === index ? { ...row, [field]: value } : row)));

  async function search() {
    if (!rows.every(rowIsComplete)) {
      setMissing(true);
      clearTimeout(missingTimer.current);
      missingTimer.current = setTimeout(() => setMissing(false), MISSING_FIELDS_MS);
      return;
    }
    setSearching(true);
    const answer = await client
      .query({
        query: LookupTracksDocument,
        variables: { mixId, tracks: rows.map((row) => ({ artist: row.artist.trim(), title: row.title.trim() })) },
        fetchPolicy: 'network-only',
      })
      .catch(() => null);
    setSearching(false);
    const candidates = answer?.data?.lookupTracks;
    if (!candidates || candidates.every((slot) => slot.length === 0)) {
      setFailures((count) => count + 1);
      return;
    }
    const options: TrackOption[][] = candidates.map((slot) =>
      slot.map((track) => ({
        id: track.id,
        title: track.title,
        creators: track.creators.map((creator) => creator.name),
        label: track.label?.name ?? null,
        coverUrl: track.coverUrl ?? null,
      })),
    );
    writeOptions(options);
    navigate('/upload/confirm');
  }

  async function skip() {
    if (!mixId) return;
    setSkipError(null);
    try {
      await setTracklist({
        variables: {
          mixId,
          tracks: tracklistEntries(
            rows.map((row) => ({ kind: 'manual', row })),
            [],
          ),
        },
      });
      markConfirmed();
      navigate('/upload/payment');
    } catch (error) {
      setSkipError(error instanceof Error ? error.message : 'The tracklist could not be saved.');
    }
  }

  const failure = failures === 0 ? null : failures === 1 ? trackListMessages.firstFailure : trackListMessages.secondFailure;

  return (
    <AppShell label="Add tracks" columns={1}>
      <div className={shared.page}>
        <UploadSteps current={2} />
        <h1 className={shared.title}>Add Tracks (min. {TRACKLIST_MIN})</h1>
        <RecognitionPanel mixId={mixId} onFound={onFound} />
        <form
          className={shared.section}
          aria-label="Your tracklist"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void search();
          }}
        >
          <ol className={styles.rows}>
            {rows.map((row, index) => (
              // Rows have no identity but their place: they are added and removed at the end only.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <li key={index} className={styles.row}>
                <span className={styles.number} aria-hidden="true">
                  {index + 1}
                </span>
                <label className={styles.cell}>
                  <span className={shared.visuallyHidden}>Artist, track {index + 1}</span>
                  <input
                    className={styles.input}
                    placeholder="Artist"
                    value={row.artist}
                    maxLength={TRACK_CREATOR_MAX}
                    aria-invalid={missing && row.artist.trim() === '' ? true : undefined}
                    onChange={(event) => edit(index, 'artist', event.target.value)}
                  />
                </label>
                <label className={styles.cell}>
                  <span className={shared.visuallyHidden}>Track title, track {index + 1}</span>
                  <input
                    className={styles.input}
                    placeholder="Track title"
                    value={row.title}
                    maxLength={TRACK_TITLE_MAX}
                    aria-invalid={missing && row.title.trim() === '' ? true : undefined}
                    onChange={(event) => edit(index, 'title', event.target.value)}
                  />
                </label>
              </li>
            ))}
          </ol>
          <div className={shared.actions}>
            {rows.length < TRACKLIST_MAX ? (
              <button
                type="button"
                className={buttons.secondary}
                onClick={() => setRows((current) => [...current, { artist: '', title: '' }])}
              >
                Add +
              </button>
            ) : null}
            {rows.length > TRACKLIST_MIN ? (
              <button type="button" className={buttons.secondary} onClick={() => setRows((current) => current.slice(0, -1))}>
                Remove -
              </button>
            ) : null}
          </div>
          <div role="status">{missing ? <p className={shared.alert}>{trackListMessages.missing}</p> : null}</div>
          {failure ? (
            <div className={shared.alert} role="alert">
              <p>Something went wrong:</p>
              <p>{failure}</p>
              <div className={shared.actions}>
                <button type="button" className={buttons.secondary} onClick={() => void search()}>
                  Try again
                </button>
                {failures > 1 ? (
                  <button type="button" className={buttons.primary} disabled={skipping.loading} onClick={() => void skip()}>
                    Skip
                  </button>
                ) : null}
              </div>
              {skipError ? <p>{skipError}</p> : null}
            </div>
          ) : null}
          <div className={shared.actions}>
            <button type="button" className={buttons.secondary} onClick={() => navigate('/upload')}>
              Start again
            </button>
            <button type="submit" className={buttons.primary} disabled={searching}>
              Search tracks
            </button>
          </div>
        </form>
      </div>
      <Overlay open={searching} title="Getting track info..." />
    </AppShell>
  );
}
