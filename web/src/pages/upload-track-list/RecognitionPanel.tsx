import { useApolloClient, useQuery, useSubscription } from '@apollo/client/react';
import { useEffect, useRef, useState } from 'react';
import {
  MixRecognitionDocument,
  RecognisedTrackDocument,
  type RecognitionFieldsFragment,
  RecognitionProgressDocument,
} from '../../gql/graphql';
import { formatClock } from '../../lib/format';
import { ProgressBar } from '../../upload/ProgressBar';
import shared from '../../upload/Upload.module.css';
import styles from './TrackListPage.module.css';

export interface FoundTrack {
  trackId: string;
  artist: string;
  title: string;
}

const isOver = (view: RecognitionFieldsFragment | undefined) => view?.state === 'DONE' || view?.state === 'FAILED';

/**
 * The recognition job of the uploaded mix, live: the share of audio scanned and the tracks found so far with their
 * times (the `recognitionProgress` subscription, after the `mixRecognition` query's state at load). Each track found
 * is handed on with its artist, for the rows.
 */
export function RecognitionPanel({ mixId, onFound }: { mixId: string; onFound(tracks: FoundTrack[]): void }) {
  const client = useApolloClient();
  const initial = useQuery(MixRecognitionDocument, { variables: { mixId }, fetchPolicy: 'network-only' });
  const over = isOver(initial.data?.mixRecognition);
  const live = useSubscription(RecognitionProgressDocument, { variables: { mixId }, skip: initial.loading || over });
  const view = live.data?.recognitionProgress ?? initial.data?.mixRecognition;
  const [details, setDetails] = useState<ReadonlyMap<string, FoundTrack>>(new Map());
  const asked = useRef(new Set<string>());
  const found = useRef(onFound);
  found.current = onFound;
  const tracks = view?.tracks;

  // Each recognised track's artist, asked once.
  useEffect(() => {
    for (const track of tracks ?? []) {
      if (asked.current.has(track.trackId)) continue;
      asked.current.add(track.trackId);
      void client
        .query({ query: RecognisedTrackDocument, variables: { id: track.trackId } })
        .then((answer) => ({
          artist: answer.data?.track?.creators.map((creator) => creator.name).join(', ') ?? '',
          title: answer.data?.track?.title ?? track.title,
        }))
        // Without its artist the track fills no row (a row needs both), and the tracks after it still do.
        .catch(() => ({ artist: '', title: track.title }))
        .then((known) => setDetails((current) => new Map(current).set(track.trackId, { trackId: track.trackId, ...known })));
    }
  }, [client, tracks]);

  // Handed on in play order: the tracks up to the first whose artist is not known yet.
  useEffect(() => {
    const ordered: FoundTrack[] = [];
    for (const track of tracks ?? []) {
      const detail = details.get(track.trackId);
      if (!detail) break;
      if (detail.artist !== '' && !ordered.some((known) => known.trackId === detail.trackId)) ordered.push(detail);
    }
    if (ordered.length > 0) found.current(ordered);
  }, [details, tracks]);

  const percent = Math.round((view?.fraction ?? 0) * 100);
  const state = view?.state;
  return (
    <section className={shared.section} aria-labelledby="recognition-title">
      <h2 id="recognition-title" className={shared.sectionTitle}>
        Tracks found in your mix
      </h2>
      {initial.error ? (
        <p className={shared.text}>Recognition is not available for this mix right now; type your tracks below.</p>
      ) : (
        <>
          <p className={shared.text} aria-live="polite">
            {state === 'DONE'
              ? `Scan complete: ${view?.tracks.length ?? 0} track${view?.tracks.length === 1 ? '' : 's'} found.`
              : state === 'FAILED'
                ? 'The scan could not finish; type your tracks below.'
                : state === 'RUNNING'
                  ? `Scanning your mix: ${percent}%`
                  : 'Waiting to scan your mix…'}
          </p>
          {state === 'DONE' || state === 'FAILED' ? null : <ProgressBar percent={percent} label="Share of the mix scanned" />}
          {view && view.tracks.length > 0 ? (
            <ol className={styles.found} aria-label="Tracks found so far">
              {view.tracks.map((track) => (
                <li key={`${track.trackId}-${track.start}`}>
                  <span className={styles.time}>{formatClock(track.start)}</span> {track.title}
                </li>
              ))}
            </ol>
          ) : null}
        </>
      )}
    </section>
  );
}
