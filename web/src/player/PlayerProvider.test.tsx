import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Player, PlayerProvider, usePlayer } from './PlayerProvider';
import type { PlayerMix } from './player-state';

const mix: PlayerMix = {
  id: 'm1',
  title: 'Sunrise set',
  coverUrl: '/cover.jpg',
  audioUrl: '/media/mix/mix-audio/a.mp3',
  ownerDisplayName: 'Ana',
  ownerUserName: 'ana',
  durationSeconds: 600,
  tracks: [],
};

let player: Player;
function Probe() {
  player = usePlayer();
  return (
    <div>
      <span data-testid="state">{player.playing ? 'playing' : 'paused'}</span>
      <input aria-label="Search" />
    </div>
  );
}

/** jsdom has no media playback: play/pause flip `paused` and fire the events a browser would. */
function fakeMediaElement() {
  let paused = true;
  let time = 0;
  vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(() => paused);
  vi.spyOn(HTMLMediaElement.prototype, 'duration', 'get').mockImplementation(() => 600);
  vi.spyOn(HTMLMediaElement.prototype, 'currentTime', 'get').mockImplementation(() => time);
  vi.spyOn(HTMLMediaElement.prototype, 'currentTime', 'set').mockImplementation((value: number) => {
    time = value;
  });
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    paused = false;
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
    paused = true;
    this.dispatchEvent(new Event('pause'));
  });
  return { time: () => time };
}

describe('the player', () => {
  let media: ReturnType<typeof fakeMediaElement>;
  beforeEach(() => {
    media = fakeMediaElement();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('toggles a mix card: loads and plays a new mix, pauses the current one, and reports each to subscribers', async () => {
    render(
      <PlayerProvider>
        <Probe />
      </PlayerProvider>,
    );
    const events: string[] = [];
    act(() => {
      player.subscribe((event) => events.push(`${event.type}:${event.mix.id}`));
    });
    act(() => player.toggle(mix));
    await act(async () => {
      document.querySelector('audio')?.dispatchEvent(new Event('loadedmetadata'));
    });
    expect(screen.getByTestId('state').textContent).toBe('playing');
    act(() => player.toggle(mix));
    expect(screen.getByTestId('state').textContent).toBe('paused');
    expect(events).toEqual(['play:m1', 'pause:m1']);
  });

  it('starts a remembered mix at its position', async () => {
    render(
      <PlayerProvider>
        <Probe />
      </PlayerProvider>,
    );
    act(() => player.load(mix, { startAt: 125 }));
    await act(async () => {
      document.querySelector('audio')?.dispatchEvent(new Event('loadedmetadata'));
    });
    expect(media.time()).toBe(125);
    expect(screen.getByTestId('state').textContent).toBe('paused');
  });

  it('space toggles play and the arrow keys seek 10 s, but not while typing', async () => {
    const user = userEvent.setup();
    render(
      <PlayerProvider>
        <Probe />
      </PlayerProvider>,
    );
    act(() => player.load(mix, { startAt: 30 }));
    await act(async () => {
      document.querySelector('audio')?.dispatchEvent(new Event('loadedmetadata'));
    });
    await user.keyboard(' ');
    expect(screen.getByTestId('state').textContent).toBe('playing');
    await user.keyboard('{ArrowRight}');
    expect(media.time()).toBe(40);
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(media.time()).toBe(20);

    await user.click(screen.getByLabelText('Search'));
    await user.keyboard(' {ArrowRight}');
    expect(screen.getByTestId('state').textContent).toBe('playing');
    expect(media.time()).toBe(20);
  });

  it('clamps seeking into the mix', async () => {
    render(
      <PlayerProvider>
        <Probe />
      </PlayerProvider>,
    );
    act(() => player.load(mix));
    act(() => player.seek(9999));
    expect(media.time()).toBe(600);
    act(() => player.seekBy(-10_000));
    expect(media.time()).toBe(0);
  });
});
