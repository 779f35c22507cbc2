import { FEED_MAX_RADIUS_KM, GENRE_CODES, GENRES } from '@mixcrate/api/domain';
import { useEffect, useId, useState } from 'react';
import { formatDistance } from '../../lib/format';
import type { FeedFilter } from './feed-filter';
import styles from './HomePage.module.css';

const RADIUS_SETTLE_MS = 250;
/** Slider tooltip: 'Max: 20,000' (docs/home-feed.md#filter). */
const MAX_HINT = `Max: ${FEED_MAX_RADIUS_KM.toLocaleString('en')}`;
const GENRE_OPTIONS = [['all', 'All'] as const, ...GENRE_CODES.map((code) => [code, GENRES[code]] as const)];

/** Filter panel: the distance slider (0 to 20,000 km) and genre tags, one at a time (docs/home-feed.md#filter). */
export function FilterPanel({ filter, onChange, id }: { filter: FeedFilter; onChange(change: Partial<FeedFilter>): void; id: string }) {
  const [radius, setRadius] = useState(filter.radiusKm);
  const sliderId = useId();
  useEffect(() => setRadius(filter.radiusKm), [filter.radiusKm]);
  // Dragging the slider asks for a new feed once it settles, not on every pixel.
  useEffect(() => {
    if (radius === filter.radiusKm) return;
    const timer = setTimeout(() => onChange({ radiusKm: radius }), RADIUS_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [radius, filter.radiusKm, onChange]);

  return (
    <section id={id} className={styles.filterPanel} aria-label="Filter mixes">
      <div className={styles.sliderRow}>
        <label htmlFor={sliderId} className={styles.filterLabel}>
          Distance: <strong>{formatDistance(radius)}</strong>
        </label>
        <input
          id={sliderId}
          type="range"
          min={0}
          max={FEED_MAX_RADIUS_KM}
          step={1}
          value={radius}
          title={MAX_HINT}
          aria-valuetext={`within ${formatDistance(radius)}`}
          onChange={(event) => setRadius(Number(event.target.value))}
          className={styles.slider}
        />
        <span className={styles.sliderMax}>{MAX_HINT}</span>
      </div>
      <fieldset className={styles.genres}>
        <legend className={styles.filterLabel}>Genre</legend>
        {GENRE_OPTIONS.map(([code, label]) => (
          <label key={code} className={[styles.genreTag, filter.genre === code ? styles.genreSelected : ''].join(' ')}>
            <input
              type="radio"
              name="genre"
              value={code}
              checked={filter.genre === code}
              onChange={() => onChange({ genre: code })}
              className={styles.visuallyHidden}
            />
            {label}
          </label>
        ))}
      </fieldset>
    </section>
  );
}
