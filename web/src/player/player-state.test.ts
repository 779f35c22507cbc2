import { describe, expect, it } from 'vitest';
import { clampPosition, initialPlayerState, type PlayerMix, playerReducer, trackAt } from './player-state';

const mix = (id: string): PlayerMix => ({
  id,
  title: `Mix ${id}`,
  coverUrl: '/c.jpg',
  audioUrl: '/a.mp3',
  ownerDisplayName: 'Ana',
  ownerUserName: 'ana',
  durationSeconds: 180,
  tracks: [],
});

describe('player state', () => {
  it('loads a mix paused with its known duration, and keeps playing when the same mix is loaded again', () => {
    let state = playerReducer(initialPlayerState, { type: 'load', mix: mix('a') });
    expect(state).toMatchObject({ playing: false, duration: 180 });
    state = playerReducer(state, { type: 'playing' });
    state = playerReducer(state, { type: 'load', mix: { ...mix('a'), title: 'renamed' } });
    expect(state).toMatchObject({ playing: true, mix: { title: 'renamed' } });
    state = playerReducer(state, { type: 'load', mix: mix('b') });
    expect(state).toMatchObject({ playing: false, mix: { id: 'b' } });
  });

  it('tracks buffering, errors, volume bounds and only real durations', () => {
    let state = playerReducer(initialPlayerState, { type: 'waiting' });
    expect(state.buffering).toBe(true);
    state = playerReducer(state, { type: 'playing' });
    expect(state.buffering).toBe(false);
    state = playerReducer(state, { type: 'error', message: 'gone' });
    expect(state).toMatchObject({ playing: false, error: 'gone' });
    expect(playerReducer(state, { type: 'volume', volume: 3 }).volume).toBe(1);
    expect(playerReducer(state, { type: 'volume', volume: -1 }).volume).toBe(0);
    expect(playerReducer(state, { type: 'duration', seconds: Number.POSITIVE_INFINITY })).toBe(state);
    expect(playerReducer(state, { type: 'duration', seconds: 61 }).duration).toBe(61);
  });

  it('finds the track playing at a position from the tracklist timestamps', () => {
    const tracks = [
      { startTime: 0, endTime: 60, title: 'One', artists: 'A' },
      { startTime: 55, endTime: 120, title: 'Two', artists: 'B' },
      { startTime: null, endTime: null, title: 'Untimed', artists: 'C' },
    ];
    expect(trackAt(tracks, 10)?.title).toBe('One');
    expect(trackAt(tracks, 57)?.title).toBe('Two');
    expect(trackAt(tracks, 119)?.title).toBe('Two');
    expect(trackAt(tracks, 150)).toBeNull();
  });

  it('clamps seeking into the mix', () => {
    expect(clampPosition(-5, 100)).toBe(0);
    expect(clampPosition(500, 100)).toBe(100);
    expect(clampPosition(Number.NaN, 100)).toBe(0);
    expect(clampPosition(50, 0)).toBe(50);
  });
});
