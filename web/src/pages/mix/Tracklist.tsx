import type { ApolloCache } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { Link } from 'react-router';
import { Spinner } from '../../components/Spinner';
import {
  type MixTrackFieldsFragment,
  RemoveSavedTrackDocument,
  SavedTracksDocument,
  type SavedTracksQuery,
  SaveTrackDocument,
} from '../../gql/graphql';
import { formatClock, storeLinks } from '../../lib/format';
import { usePlayer, usePlayerPosition } from '../../player/PlayerProvider';
import { trackAt } from '../../player/player-state';
import { toPlayerTracks } from '../../player/to-player-mix';
import styles from './MixPage.module.css';

type SavedTracks = NonNullable<SavedTracksQuery['me']>['savedTracks'];

/** The save/remove mutations answer the whole saved list: write it where the sidebar reads it. */
function writeSavedTracks(cache: ApolloCache, list: SavedTracks): void {
  const current = cache.readQuery({ query: SavedTracksDocument });
  if (current?.me) cache.writeQuery({ query: SavedTracksDocument, data: { me: { ...current.me, savedTracks: list } } });
}

function SavedTrackButton({ trackId, title, saved }: { trackId: string; title: string; saved: boolean }) {
  const update = writeSavedTracks;
  const [save, saving] = useMutation(SaveTrackDocument, { update: (cache, { data }) => data && update(cache, data.saveTrack) });
  const [remove, removing] = useMutation(RemoveSavedTrackDocument, {
    update: (cache, { data }) => data && update(cache, data.removeSavedTrack),
  });
  const pending = saving.loading || removing.loading;
  return (
    <button
      type="button"
      className={styles.trackSave}
      aria-pressed={saved}
      aria-label={saved ? `Remove ${title} from saved tracks` : `Save ${title}`}
      disabled={pending}
      onClick={() => (saved ? remove({ variables: { trackId } }) : save({ variables: { trackId } })).catch(() => undefined)}
    >
      {pending ? <Spinner size="small" label="Saving track" /> : saved ? '-' : '+'}
    </button>
  );
}

/** 'Tracklist': each entry with its time, store search links and, when signed in, the saved-track +/- button (docs/mix-page.md#tracklist). */
export function Tracklist({
  mixId,
  tracks,
  shared = false,
}: {
  mixId: string;
  tracks: readonly MixTrackFieldsFragment[];
  shared?: boolean;
}) {
  const player = usePlayer();
  const position = usePlayerPosition();
  const { data } = useQuery(SavedTracksDocument, { skip: shared });
  const savedIds = new Set(data?.me?.savedTracks.map((saved) => saved.track.id));
  const isCurrent = player.mix?.id === mixId;
  const playingEntry = isCurrent ? trackAt(toPlayerTracks(tracks), position) : null;

  if (tracks.length === 0) return <p className={styles.muted}>No tracklist yet.</p>;
  return (
    <ol className={styles.tracklist}>
      {tracks.map((entry) => {
        const creators = entry.track.creators.map((creator) => creator.name).join(', ');
        const nowPlaying =
          playingEntry !== null && playingEntry.startTime === (entry.startTime ?? null) && playingEntry.title === entry.track.title;
        return (
          <li
            key={entry.position}
            className={[styles.trackRow, nowPlaying ? styles.nowPlaying : ''].join(' ')}
            aria-current={nowPlaying || undefined}
          >
            <span className={styles.trackNumber}>{entry.position}</span>
            {entry.startTime !== null && entry.startTime !== undefined ? (
              <button
                type="button"
                className={styles.trackTime}
                aria-label={`Play from ${formatClock(entry.startTime)}`}
                disabled={!isCurrent}
                onClick={() => player.seek(entry.startTime ?? 0)}
              >
                {formatClock(entry.startTime)}
              </button>
            ) : (
              <span className={styles.trackTime} />
            )}
            <span className={styles.trackText}>
              <Link className={styles.trackTitle} to={`/track/${entry.track.id}`} aria-label={`${entry.track.title}: where it is played`}>
                {entry.track.title}
              </Link>
              <span className={styles.muted}>
                {creators}
                {entry.track.label ? ` · ${entry.track.label.name}` : ''}
              </span>
            </span>
            <span className={styles.trackLinks}>
              {storeLinks(entry.track.title, entry.track.creators).map((link) => (
                <a
                  key={link.store}
                  href={link.url}
                  target="_blank"
                  rel="noreferrer noopener"
                  aria-label={`Find ${entry.track.title} on ${link.store}`}
                >
                  {link.store}
                </a>
              ))}
            </span>
            {!shared && !entry.track.isManual ? (
              <SavedTrackButton trackId={entry.track.id} title={entry.track.title} saved={savedIds.has(entry.track.id)} />
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
