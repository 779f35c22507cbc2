/** What the player needs of a mix: enough to play it and show it without another request. */
export interface PlayerTrack {
  startTime: number | null;
  endTime: number | null;
  title: string;
  artists: string;
}

export interface PlayerMix {
  id: string;
  title: string;
  coverUrl: string;
  audioUrl: string;
  ownerDisplayName: string;
  ownerUserName: string | null;
  durationSeconds: number | null;
  tracks: PlayerTrack[];
}

export interface PlayerState {
  mix: PlayerMix | null;
  playing: boolean;
  /** Waiting for data after play or seek. */
  buffering: boolean;
  duration: number;
  volume: number;
  error: string | null;
}

export type PlayerAction =
  | { type: 'load'; mix: PlayerMix }
  | { type: 'playing' }
  | { type: 'paused' }
  | { type: 'waiting' }
  | { type: 'duration'; seconds: number }
  | { type: 'volume'; volume: number }
  | { type: 'error'; message: string };

export const initialPlayerState: PlayerState = {
  mix: null,
  playing: false,
  buffering: false,
  duration: 0,
  volume: 1,
  error: null,
};

export function playerReducer(state: PlayerState, action: PlayerAction): PlayerState {
  switch (action.type) {
    case 'load':
      if (state.mix?.id === action.mix.id) return { ...state, mix: action.mix };
      return { ...state, mix: action.mix, playing: false, buffering: false, error: null, duration: action.mix.durationSeconds ?? 0 };
    case 'playing':
      return { ...state, playing: true, buffering: false, error: null };
    case 'paused':
      return { ...state, playing: false, buffering: false };
    case 'waiting':
      return { ...state, buffering: true };
    case 'duration':
      return Number.isFinite(action.seconds) && action.seconds > 0 ? { ...state, duration: action.seconds } : state;
    case 'volume':
      return { ...state, volume: Math.min(1, Math.max(0, action.volume)) };
    case 'error':
      return { ...state, playing: false, buffering: false, error: action.message };
  }
}

/** The tracklist entry audible at a position ("now playing"), from the tracklist's timestamps. */
export function trackAt(tracks: readonly PlayerTrack[], position: number): PlayerTrack | null {
  let current: PlayerTrack | null = null;
  for (const track of tracks) {
    if (track.startTime === null || track.startTime > position) continue;
    if (track.endTime !== null && track.endTime <= position) continue;
    if (!current || (current.startTime ?? 0) <= track.startTime) current = track;
  }
  return current;
}

/** Seconds clamped into the mix. */
export function clampPosition(seconds: number, duration: number): number {
  if (!Number.isFinite(seconds) || seconds < 0) return 0;
  return duration > 0 ? Math.min(seconds, duration) : seconds;
}
