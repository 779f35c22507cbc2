import { useEffect, useRef } from 'react';
import styles from './PlayerBar.module.css';

interface WaveformProps {
  /** 0 to 1, evenly over the mix; null draws a plain bar. */
  peaks: readonly number[] | null;
  /** 0 to 1 of the mix played. */
  progress: number;
}

const PLAYED = '#ff3d81';
const UNPLAYED = '#4a4a60';

/** The seek bar's picture: the mix's peaks, played part in the accent colour. The range input above it does the work. */
export function Waveform({ peaks, progress }: WaveformProps) {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const element = canvas.current;
    const context = element?.getContext('2d');
    if (!element || !context) return;
    const ratio = window.devicePixelRatio || 1;
    const width = element.clientWidth * ratio;
    const height = element.clientHeight * ratio;
    if (element.width !== width || element.height !== height) {
      element.width = width;
      element.height = height;
    }
    context.clearRect(0, 0, width, height);
    const playedX = progress * width;
    if (!peaks || peaks.length === 0) {
      const bar = Math.max(2, height * 0.15);
      context.fillStyle = UNPLAYED;
      context.fillRect(0, (height - bar) / 2, width, bar);
      context.fillStyle = PLAYED;
      context.fillRect(0, (height - bar) / 2, playedX, bar);
      return;
    }
    const step = 3 * ratio;
    const barWidth = 2 * ratio;
    const bars = Math.max(1, Math.floor(width / step));
    for (let bar = 0; bar < bars; bar += 1) {
      const from = Math.floor((bar / bars) * peaks.length);
      const to = Math.max(from + 1, Math.floor(((bar + 1) / bars) * peaks.length));
      let peak = 0;
      for (let index = from; index < to && index < peaks.length; index += 1) peak = Math.max(peak, peaks[index] ?? 0);
      const barHeight = Math.max(ratio * 2, peak * height);
      const x = bar * step;
      context.fillStyle = x < playedX ? PLAYED : UNPLAYED;
      context.fillRect(x, (height - barHeight) / 2, barWidth, barHeight);
    }
  });

  return <canvas ref={canvas} className={styles.waveform} />;
}
