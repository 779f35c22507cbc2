import type { MixCardFieldsFragment } from '../gql/graphql';
import { usePlayer } from '../player/PlayerProvider';
import { toPlayerMix } from '../player/to-player-mix';
import { PauseIcon, PlayIcon } from './icons/Icons';

/** The class names of a tile's cover, its image and its play button, from the page's own styles. */
export interface TileCoverClasses {
  wrap: string;
  cover: string;
  play: string;
}

/** A small mix tile's cover with its play/pause button (MixGrid, the "For you" row). */
export function TileCover({ mix, classes, iconSize }: { mix: MixCardFieldsFragment; classes: TileCoverClasses; iconSize: number }) {
  const player = usePlayer();
  const playing = player.mix?.id === mix.id && player.playing;
  return (
    <div className={classes.wrap}>
      <img className={classes.cover} src={mix.coverUrl} alt="" width={400} height={400} loading="lazy" />
      <button
        type="button"
        className={classes.play}
        onClick={() => player.toggle(toPlayerMix(mix))}
        aria-label={playing ? `Pause ${mix.title}` : `Play ${mix.title}`}
      >
        {playing ? <PauseIcon width={iconSize} height={iconSize} /> : <PlayIcon width={iconSize} height={iconSize} />}
      </button>
    </div>
  );
}
