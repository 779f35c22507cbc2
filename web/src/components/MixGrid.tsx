import { Link } from 'react-router';
import type { MixCardFieldsFragment } from '../gql/graphql';
import { formatDate, genreLabel, truncate } from '../lib/format';
import { usePlayer } from '../player/PlayerProvider';
import { toPlayerMix } from '../player/to-player-mix';
import { PauseIcon, PlayIcon } from './icons/Icons';
import styles from './MixGrid.module.css';

const TILE_TITLE_CHARS = 60;

/** Small mix tiles (other mixes by a DJ, a profile's mixes): cover with play/pause, title linking to the mix page. */
export function MixGrid({ mixes, shared = false, label }: { mixes: readonly MixCardFieldsFragment[]; shared?: boolean; label: string }) {
  const player = usePlayer();
  return (
    <ul className={styles.grid} aria-label={label}>
      {mixes.map((mix) => {
        const playing = player.mix?.id === mix.id && player.playing;
        return (
          <li key={mix.id} className={styles.tile}>
            <div className={styles.coverWrap}>
              <img className={styles.cover} src={mix.coverUrl} alt="" width={400} height={400} loading="lazy" />
              <button
                type="button"
                className={styles.play}
                onClick={() => player.toggle(toPlayerMix(mix))}
                aria-label={playing ? `Pause ${mix.title}` : `Play ${mix.title}`}
              >
                {playing ? <PauseIcon width={22} height={22} /> : <PlayIcon width={22} height={22} />}
              </button>
            </div>
            <Link to={shared ? `/shared-mix/${mix.id}` : `/mix/${mix.id}`} className={styles.title} title={mix.title}>
              {truncate(mix.title, TILE_TITLE_CHARS)}
            </Link>
            <p className={styles.meta}>
              {genreLabel(mix.genre)} · {formatDate(mix.publishedAt ?? mix.createdAt)}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
