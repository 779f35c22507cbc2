import { Link } from 'react-router';
import type { MixCardFieldsFragment } from '../gql/graphql';
import { formatDate, genreLabel, truncate } from '../lib/format';
import styles from './MixGrid.module.css';
import { TileCover } from './TileCover';

const TILE_CLASSES = { wrap: styles.coverWrap, cover: styles.cover, play: styles.play };

const TILE_TITLE_CHARS = 60;

/** Small mix tiles (other mixes by a DJ, a profile's mixes): cover with play/pause, title linking to the mix page. */
export function MixGrid({ mixes, shared = false, label }: { mixes: readonly MixCardFieldsFragment[]; shared?: boolean; label: string }) {
  return (
    <ul className={styles.grid} aria-label={label}>
      {mixes.map((mix) => {
        return (
          <li key={mix.id} className={styles.tile}>
            <TileCover mix={mix} classes={TILE_CLASSES} iconSize={22} />
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
