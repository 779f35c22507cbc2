import type { TracklistEntryInput } from '../gql/graphql';
import type { TrackRow } from './upload-state';

/** A track recognised in the mix, and when it plays (seconds). */
export interface RecognisedTiming {
  trackId: string;
  start: number;
  end: number;
}

/** One slot of the tracklist as chosen at step 3 (or typed, when step 2 is skipped). */
export type ChosenTrack = { kind: 'catalogue'; trackId: string; title: string; creators: string[] } | { kind: 'manual'; row: TrackRow };

/** Every row needs both an artist and a title (docs/upload.md#step-2-add-tracks). */
export const rowIsComplete = (row: TrackRow): boolean => row.artist.trim() !== '' && row.title.trim() !== '';

/**
 * The setTracklist entries for the chosen slots, in order. A catalogue track recognised in the mix carries the times it
 * was found at, as long as they do not go back from the entry above (the server refuses start times that go back:
 * a DJ may order rows otherwise than they play); others carry none.
 */
export function tracklistEntries(chosen: ChosenTrack[], recognised: readonly RecognisedTiming[]): TracklistEntryInput[] {
  const timing = new Map(recognised.map((track) => [track.trackId, track]));
  let lastStart = 0;
  return chosen.map((slot) => {
    if (slot.kind === 'manual') {
      return { title: slot.row.title.trim(), creators: [slot.row.artist.trim()], isManual: true };
    }
    const entry: TracklistEntryInput = { title: slot.title, creators: slot.creators, catalogueTrackId: slot.trackId };
    const found = timing.get(slot.trackId);
    if (found && found.start >= lastStart && found.end > found.start) {
      lastStart = found.start;
      return { ...entry, startTime: found.start, endTime: found.end };
    }
    return entry;
  });
}

/**
 * Recognised tracks placed into the typed rows: each track not placed yet fills the first row left empty, or a new row
 * while there are fewer than `max`. Rows the DJ typed in are never changed.
 */
export function placeRecognised(
  rows: TrackRow[],
  found: readonly { trackId: string; artist: string; title: string }[],
  max: number,
): TrackRow[] {
  const placed = new Set(rows.map((row) => row.recognisedTrackId).filter(Boolean));
  const next = [...rows];
  for (const track of found) {
    if (placed.has(track.trackId)) continue;
    const filled: TrackRow = { artist: track.artist, title: track.title, recognisedTrackId: track.trackId };
    const empty = next.findIndex((row) => row.artist.trim() === '' && row.title.trim() === '');
    if (empty >= 0) next[empty] = filled;
    else if (next.length < max) next.push(filled);
    else continue;
    placed.add(track.trackId);
  }
  return next;
}
