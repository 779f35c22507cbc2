import { useQuery, useSubscription } from '@apollo/client/react';
import { Link } from 'react-router';
import { HeadphonesIcon, PauseIcon, PlayIcon, ShareIcon, VolumeIcon } from '../components/icons/Icons';
import { MixListenerCountDocument, PlayerMixDocument } from '../gql/graphql';
import { formatClock } from '../lib/format';
import { sharedMixUrl, useCopyLink } from '../lib/use-copy-link';
import styles from './PlayerBar.module.css';
import { usePlayer, usePlayerPosition } from './PlayerProvider';
import { trackAt } from './player-state';
import { toPlayerTracks } from './to-player-mix';
import { Waveform } from './Waveform';

const WAVEFORM_POLL_MS = 15_000;

function SeekBar({ mixId, duration }: { mixId: string; duration: number }) {
  const player = usePlayer();
  const position = usePlayerPosition();
  const { data } = useQuery(PlayerMixDocument, { variables: { id: mixId } });
  const waveform = data?.mix?.waveform;
  const tracks = data?.mix ? toPlayerTracks(data.mix.tracks) : (player.mix?.tracks ?? []);
  // Until the waveform job has measured the mix, look again now and then.
  useQuery(PlayerMixDocument, {
    variables: { id: mixId },
    skip: waveform?.state !== 'PENDING',
    pollInterval: WAVEFORM_POLL_MS,
    fetchPolicy: 'network-only',
  });
  const total = duration || waveform?.durationSeconds || 0;
  const nowPlaying = trackAt(tracks, position);

  return (
    <div className={styles.seek}>
      <div className={styles.nowPlaying} aria-live="off">
        {nowPlaying ? (
          <>
            <span className={styles.nowLabel}>Now playing</span> {nowPlaying.artists} – {nowPlaying.title}
          </>
        ) : null}
      </div>
      <div className={styles.seekRow}>
        <span className={styles.time}>{formatClock(position)}</span>
        <div className={styles.seekTrack}>
          <Waveform peaks={waveform?.state === 'READY' ? (waveform.peaks ?? null) : null} progress={total > 0 ? position / total : 0} />
          <input
            type="range"
            className={styles.seekInput}
            min={0}
            max={Math.max(1, Math.floor(total))}
            step={1}
            value={Math.min(Math.floor(position), Math.max(1, Math.floor(total)))}
            onChange={(event) => player.seek(Number(event.target.value))}
            onKeyDown={(event) => {
              // Ten-second steps, as the page-wide arrow keys do.
              if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
                event.preventDefault();
                player.seekBy(event.key === 'ArrowRight' ? 10 : -10);
              }
            }}
            aria-label="Seek"
            aria-valuetext={`${formatClock(position)} of ${formatClock(total)}`}
          />
        </div>
        <span className={styles.time}>{formatClock(total)}</span>
      </div>
    </div>
  );
}

function ListenerCount({ mixId }: { mixId: string }) {
  const { data } = useSubscription(MixListenerCountDocument, { variables: { mixId } });
  const count = data?.mixListenerCount;
  if (count === undefined) return null;
  return (
    <span className={styles.listeners} title="Listening now">
      <HeadphonesIcon width={16} height={16} />
      <span>
        {count} <span className={styles.hideNarrow}>listening</span>
      </span>
    </span>
  );
}

/** Audio player bar: play/pause, seek bar with elapsed and total time, volume, share, cover, title, DJ (docs/player-and-listens.md#the-player-bar). */
export function PlayerBar() {
  const player = usePlayer();
  const { copied, copy } = useCopyLink();
  const mix = player.mix;
  if (!mix) return null;
  const owner = mix.ownerUserName ? (
    <Link
      to={player.mode === 'private' ? `/profile/${mix.ownerUserName}` : `/shared-profile/${mix.ownerUserName}`}
      className={styles.owner}
    >
      {mix.ownerDisplayName}
    </Link>
  ) : (
    <span className={styles.owner}>{mix.ownerDisplayName}</span>
  );

  return (
    <section className={styles.bar} aria-label="Audio player">
      <img className={styles.cover} src={mix.coverUrl} alt="" width={56} height={56} />
      <div className={styles.meta}>
        <Link to={player.mode === 'private' ? `/mix/${mix.id}` : `/shared-mix/${mix.id}`} className={styles.title}>
          {mix.title}
        </Link>
        {owner}
      </div>
      <button
        type="button"
        className={styles.play}
        onClick={() => player.toggle()}
        aria-label={player.playing ? 'Pause' : 'Play'}
        aria-busy={player.buffering || undefined}
      >
        {player.playing ? <PauseIcon /> : <PlayIcon />}
      </button>
      <SeekBar mixId={mix.id} duration={player.duration} />
      <label className={styles.volume}>
        <VolumeIcon width={20} height={20} />
        <span className={styles.visuallyHidden}>Volume</span>
        <input
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={player.volume}
          onChange={(event) => player.setVolume(Number(event.target.value))}
        />
      </label>
      <ListenerCount mixId={mix.id} />
      <div className={styles.shareWrap}>
        <button type="button" className={styles.iconButton} onClick={() => copy(sharedMixUrl(mix.id))} aria-label="Copy link to this mix">
          <ShareIcon width={20} height={20} />
        </button>
        {copied ? (
          <span className={styles.bubble} role="status">
            Copied mix
          </span>
        ) : null}
      </div>
      {player.error ? (
        <p className={styles.error} role="alert">
          {player.error}
        </p>
      ) : null}
    </section>
  );
}
