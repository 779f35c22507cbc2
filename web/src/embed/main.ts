import type { EmbedWaveformQuery } from '../gql/graphql';
import waveformQuery from './waveform.graphql?raw';

/**
 * The embed player (/embed/mix/{id}, rendered by the API): turns the page's plain audio element into a play button
 * and a seek bar drawn over the mix's waveform. No framework, so the frame loads fast on other people's pages.
 */
const main = document.querySelector<HTMLElement>('main[data-mix-id]');
const audio = main?.querySelector('audio');
if (main && audio) enhance(main, audio);

function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds || 0));
  const two = (value: number) => String(value).padStart(2, '0');
  const [hours, minutes, rest] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  return hours ? `${hours}:${two(minutes)}:${two(rest)}` : `${minutes}:${two(rest)}`;
}

function enhance(main: HTMLElement, audio: HTMLAudioElement): void {
  const title = main.querySelector('h1')?.textContent ?? 'mix';
  const time = main.querySelector<HTMLElement>('.time');
  const knownDuration = Number(main.dataset.duration) || 0;
  const duration = () => (Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : knownDuration);

  const player = document.createElement('div');
  player.className = 'player';
  const button = document.createElement('button');
  button.type = 'button';
  const track = document.createElement('div');
  track.className = 'track';
  const canvas = document.createElement('canvas');
  canvas.setAttribute('aria-hidden', 'true');
  const seek = document.createElement('input');
  seek.type = 'range';
  seek.min = '0';
  seek.step = '1';
  seek.setAttribute('aria-label', `Seek in ${title}`);
  track.append(canvas, seek);
  player.append(button, track);
  audio.controls = false;
  audio.hidden = true;
  audio.before(player);
  if (time) time.hidden = false;

  let peaks: number[] = [];
  const draw = () => {
    const ratio = window.devicePixelRatio || 1;
    const { width, height } = canvas.getBoundingClientRect();
    canvas.width = Math.max(1, Math.round(width * ratio));
    canvas.height = Math.max(1, Math.round(height * ratio));
    const context = canvas.getContext('2d');
    if (!context) return;
    context.clearRect(0, 0, canvas.width, canvas.height);
    const played = duration() ? audio.currentTime / duration() : 0;
    const bars = Math.max(1, Math.floor(canvas.width / (3 * ratio)));
    for (let bar = 0; bar < bars; bar++) {
      const peak = peaks.length ? (peaks[Math.floor((bar / bars) * peaks.length)] ?? 0) : 0.15;
      const barHeight = Math.max(2 * ratio, peak * canvas.height);
      context.fillStyle = bar / bars < played ? '#ffb347' : '#5b5b6e';
      context.fillRect(bar * 3 * ratio, (canvas.height - barHeight) / 2, 2 * ratio, barHeight);
    }
  };
  const update = () => {
    const playing = !audio.paused;
    button.textContent = playing ? '❚❚' : '▶';
    button.setAttribute('aria-label', `${playing ? 'Pause' : 'Play'} ${title}`);
    seek.max = String(Math.round(duration()));
    seek.value = String(Math.round(audio.currentTime));
    seek.setAttribute('aria-valuetext', `${clock(audio.currentTime)} of ${clock(duration())}`);
    if (time) time.textContent = `${clock(audio.currentTime)} / ${clock(duration())}`;
    draw();
  };

  button.addEventListener('click', () => {
    if (audio.paused) void audio.play().catch(update);
    else audio.pause();
  });
  seek.addEventListener('input', () => {
    audio.currentTime = Number(seek.value);
    update();
  });
  for (const event of ['play', 'pause', 'timeupdate', 'durationchange', 'ended']) audio.addEventListener(event, update);
  window.addEventListener('resize', draw);
  update();

  void fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: waveformQuery, variables: { id: main.dataset.mixId } }),
  })
    .then((response) => response.json() as Promise<{ data?: EmbedWaveformQuery }>)
    .then((result) => {
      peaks = result.data?.mix?.waveform.peaks ?? [];
      draw();
    })
    .catch(() => undefined);
}
