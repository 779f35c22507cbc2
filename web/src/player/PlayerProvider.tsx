import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { clampPosition, initialPlayerState, type PlayerMix, type PlayerState, playerReducer } from './player-state';

/** Private routes remember the position and report listens as the member; public (shared) routes do neither. */
export type PlayerMode = 'public' | 'private';

export type PlayerEvent =
  | { type: 'play' | 'pause' | 'ended' | 'heartbeat'; mix: PlayerMix; position: number }
  | { type: 'leave'; mix: PlayerMix; position: number };

export interface LoadOptions {
  autoplay?: boolean;
  /** Seconds into the mix (a remembered position). */
  startAt?: number;
}

export interface Player extends PlayerState {
  mode: PlayerMode;
  setMode(mode: PlayerMode): void;
  load(mix: PlayerMix, options?: LoadOptions): void;
  /** Play/pause for a mix card: loads and plays the mix unless it is the current one, which it toggles. */
  toggle(mix?: PlayerMix): void;
  play(): void;
  pause(): void;
  seek(seconds: number): void;
  seekBy(seconds: number): void;
  setVolume(volume: number): void;
  currentTime(): number;
  /** Listens to play, pause, end, a heartbeat every 25 s while playing, and leaving the page. */
  subscribe(listener: (event: PlayerEvent) => void): () => void;
}

const PlayerContext = createContext<Player | null>(null);
const TimeContext = createContext<{ subscribe(onChange: () => void): () => void; read(): number } | null>(null);

/** Players send a sign of life every 20-30 s while playing: a listen stops counting a minute after its last one. */
export const HEARTBEAT_MS = 25_000;
export const SEEK_STEP_SECONDS = 10;

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return Boolean(target.closest('input, textarea, select, button, a, [contenteditable="true"], [role="slider"]'));
}

/**
 * The one audio element of the app, rendered above the router outlet so playback survives every navigation.
 * Position is read from the element itself (a separate subscription) so a time update re-renders only the clocks.
 */
export function PlayerProvider({ children }: { children: ReactNode }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [state, dispatch] = useReducer(playerReducer, initialPlayerState);
  const [mode, setMode] = useState<PlayerMode>('public');
  const listeners = useRef(new Set<(event: PlayerEvent) => void>());
  const timeListeners = useRef(new Set<() => void>());
  const pendingStart = useRef<{ at: number; autoplay: boolean } | null>(null);
  const mixRef = useRef<PlayerMix | null>(null);
  mixRef.current = state.mix;

  const emit = useCallback((type: PlayerEvent['type']) => {
    const mix = mixRef.current;
    const element = audio.current;
    if (!mix || !element) return;
    for (const listener of listeners.current) listener({ type, mix, position: element.currentTime });
  }, []);

  const play = useCallback(() => {
    const element = audio.current;
    if (!element || !mixRef.current) return;
    element.play().catch((error: unknown) => {
      // Autoplay without a gesture is refused by browsers: stay paused, the play button still works.
      if (error instanceof DOMException && error.name === 'NotAllowedError') dispatch({ type: 'paused' });
      else if (!(error instanceof DOMException && error.name === 'AbortError'))
        dispatch({ type: 'error', message: 'This mix could not be played.' });
    });
  }, []);

  const pause = useCallback(() => audio.current?.pause(), []);

  const load = useCallback(
    (mix: PlayerMix, { autoplay = false, startAt = 0 }: LoadOptions = {}) => {
      const element = audio.current;
      if (!element) return;
      if (mixRef.current?.id === mix.id) {
        dispatch({ type: 'load', mix });
        if (autoplay) play();
        return;
      }
      if (mixRef.current && !element.paused) element.pause();
      mixRef.current = mix;
      dispatch({ type: 'load', mix });
      pendingStart.current = { at: startAt, autoplay };
      element.src = mix.audioUrl;
      element.load();
    },
    [play],
  );

  const toggle = useCallback(
    (mix?: PlayerMix) => {
      const element = audio.current;
      if (!element) return;
      if (mix && mixRef.current?.id !== mix.id) {
        load(mix, { autoplay: true });
        return;
      }
      if (element.paused) play();
      else element.pause();
    },
    [load, play],
  );

  const seek = useCallback((seconds: number) => {
    const element = audio.current;
    if (!element || !mixRef.current) return;
    element.currentTime = clampPosition(seconds, Number.isFinite(element.duration) ? element.duration : 0);
    for (const listener of timeListeners.current) listener();
  }, []);

  const seekBy = useCallback((delta: number) => seek((audio.current?.currentTime ?? 0) + delta), [seek]);

  const setVolume = useCallback((volume: number) => {
    if (audio.current) audio.current.volume = Math.min(1, Math.max(0, volume));
  }, []);

  const subscribe = useCallback((listener: (event: PlayerEvent) => void) => {
    listeners.current.add(listener);
    return () => listeners.current.delete(listener);
  }, []);

  const currentTime = useCallback(() => audio.current?.currentTime ?? 0, []);

  // Heartbeats while playing, so a closed tab still leaves a recent position behind.
  useEffect(() => {
    if (!state.playing) return;
    const timer = setInterval(() => emit('heartbeat'), HEARTBEAT_MS);
    return () => clearInterval(timer);
  }, [state.playing, emit]);

  useEffect(() => {
    const leave = () => emit('leave');
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [emit]);

  // Space toggles play, arrow keys seek 10 s; never while the member types or operates a control (docs/player-and-listens.md#the-player-bar).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!mixRef.current || event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target)) return;
      if (event.key === ' ') {
        event.preventDefault();
        toggle();
      } else if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
        event.preventDefault();
        seekBy(event.key === 'ArrowRight' ? SEEK_STEP_SECONDS : -SEEK_STEP_SECONDS);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle, seekBy]);

  // Media Session: lock screen, notification and hardware keys.
  useEffect(() => {
    const session = typeof navigator !== 'undefined' ? navigator.mediaSession : undefined;
    const mix = state.mix;
    if (!session || !mix || typeof MediaMetadata === 'undefined') return;
    session.metadata = new MediaMetadata({
      title: mix.title,
      artist: mix.ownerDisplayName,
      album: 'mixcrate',
      artwork: [{ src: mix.coverUrl, sizes: '400x400', type: 'image/jpeg' }],
    });
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => play()],
      ['pause', () => pause()],
      ['seekbackward', (details) => seekBy(-(details.seekOffset ?? SEEK_STEP_SECONDS))],
      ['seekforward', (details) => seekBy(details.seekOffset ?? SEEK_STEP_SECONDS)],
      ['seekto', (details) => seek(details.seekTime ?? 0)],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // An action this browser does not support.
      }
    }
  }, [state.mix, play, pause, seek, seekBy]);

  useEffect(() => {
    if (typeof navigator !== 'undefined' && navigator.mediaSession) {
      navigator.mediaSession.playbackState = state.mix ? (state.playing ? 'playing' : 'paused') : 'none';
    }
  }, [state.mix, state.playing]);

  const notifyTime = useCallback(() => {
    for (const listener of timeListeners.current) listener();
  }, []);

  const player = useMemo<Player>(
    () => ({ ...state, mode, setMode, load, toggle, play, pause, seek, seekBy, setVolume, currentTime, subscribe }),
    [state, mode, load, toggle, play, pause, seek, seekBy, setVolume, currentTime, subscribe],
  );
  const time = useMemo(
    () => ({
      subscribe(onChange: () => void) {
        timeListeners.current.add(onChange);
        return () => timeListeners.current.delete(onChange);
      },
      read: currentTime,
    }),
    [currentTime],
  );

  return (
    <PlayerContext.Provider value={player}>
      <TimeContext.Provider value={time}>
        {children}
        {/* biome-ignore lint/a11y/useMediaCaption: DJ mixes are music; the player bar shows the track playing */}
        <audio
          ref={audio}
          preload="metadata"
          onPlay={() => {
            dispatch({ type: 'playing' });
            emit('play');
          }}
          onPlaying={() => dispatch({ type: 'playing' })}
          onPause={(event) => {
            dispatch({ type: 'paused' });
            if (!event.currentTarget.ended) emit('pause');
          }}
          onEnded={() => {
            dispatch({ type: 'paused' });
            emit('ended');
          }}
          onWaiting={() => dispatch({ type: 'waiting' })}
          onTimeUpdate={notifyTime}
          onSeeked={notifyTime}
          onVolumeChange={(event) => dispatch({ type: 'volume', volume: event.currentTarget.volume })}
          onDurationChange={(event) => dispatch({ type: 'duration', seconds: event.currentTarget.duration })}
          onLoadedMetadata={(event) => {
            const start = pendingStart.current;
            pendingStart.current = null;
            if (!start) return;
            if (start.at > 0) event.currentTarget.currentTime = start.at;
            notifyTime();
            if (start.autoplay) play();
          }}
          onError={() => {
            if (mixRef.current) dispatch({ type: 'error', message: 'This mix could not be loaded.' });
          }}
        />
      </TimeContext.Provider>
    </PlayerContext.Provider>
  );
}

export function usePlayer(): Player {
  const player = useContext(PlayerContext);
  if (!player) throw new Error('usePlayer must be used inside <PlayerProvider>');
  return player;
}

/** The playing position in seconds, re-rendering the caller on every time update. */
export function usePlayerPosition(): number {
  const time = useContext(TimeContext);
  if (!time) throw new Error('usePlayerPosition must be used inside <PlayerProvider>');
  return useSyncExternalStore(time.subscribe, time.read, () => 0);
}

/** Sets the player's mode while the calling route is shown (docs/player-and-listens.md#private-and-public-mode: private routes wrap the player in private mode). */
export function usePlayerMode(mode: PlayerMode): void {
  const { setMode } = usePlayer();
  useEffect(() => {
    setMode(mode);
    return () => setMode('public');
  }, [mode, setMode]);
}
