import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { DeactivateMixDocument, type MixCardFieldsFragment, MixStatsDocument, type MixTrackFieldsFragment } from '../gql/graphql';
import { formatDistance, genreLabel, truncate } from '../lib/format';
import { sharedMixUrl, useCopyLink } from '../lib/use-copy-link';
import { useDateLabel } from '../lib/use-date-label';
import { usePlayer } from '../player/PlayerProvider';
import { toPlayerMix } from '../player/to-player-mix';
import buttons from './Button.module.css';
import { HeadphonesIcon, PauseIcon, PlayIcon, ShareIcon, TrashIcon } from './icons/Icons';
import styles from './MixCard.module.css';
import { SaveMixButton } from './SaveMixButton';
import { MixCardMenu } from './trust/MixCardMenu';
import { ReportDialog } from './trust/ReportDialog';

/** Mix titles in cards are cut at 60 characters; the tracklist preview shows the first 4 tracks (docs/mix-page.md#mix-card). */
export const CARD_TITLE_CHARS = 60;
export const PREVIEW_TRACKS = 4;
const PREVIEW_TITLE_CHARS = 50;
const PREVIEW_CREATOR_CHARS = 60;

export type CardMix = MixCardFieldsFragment & { tracks?: readonly MixTrackFieldsFragment[] };

export interface MixCardProps {
  mix: CardMix;
  /** Shared pages: no save control, no distance badge, links to shared profiles. */
  shared?: boolean;
  /** The carousel's card shows the first tracks of the tracklist. */
  preview?: boolean;
}

function StatsPanel({ mixId }: { mixId: string }) {
  const { data, loading, error } = useQuery(MixStatsDocument, { variables: { mixId }, fetchPolicy: 'cache-and-network' });
  const stats = data?.mixStats;
  if (error) return <p className={styles.inlineError}>Stats are not available right now.</p>;
  if (!stats) return loading ? <p className={styles.muted}>Loading stats…</p> : null;
  const rows: [string, string | number][] = [
    ['Listeners', stats.listeners],
    ['Listens', stats.listens],
    ['Hours', stats.hours],
    ['Saves', stats.saves],
  ];
  return (
    <dl className={styles.stats}>
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function DeleteControl({ mix }: { mix: MixCardFieldsFragment }) {
  const [confirming, setConfirming] = useState(false);
  const navigate = useNavigate();
  const dialogId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  const userName = mix.owner.userName;
  const [deactivate, { loading, error }] = useMutation(DeactivateMixDocument, {
    // Deleting a mix refreshes the profile's mixes (whatever page size the profile asked for) (docs/mix-page.md#deleting-a-mix).
    refetchQueries: ['MixesByUser', 'Feed', 'SavedMixes'],
  });
  useEffect(() => {
    if (confirming) cancel.current?.focus();
  }, [confirming]);

  return (
    <>
      <button
        type="button"
        className={styles.iconButton}
        aria-label={`Delete ${mix.title}`}
        aria-haspopup="dialog"
        onClick={() => setConfirming(true)}
      >
        <TrashIcon width={20} height={20} />
      </button>
      {confirming ? (
        <div className={styles.confirm} role="alertdialog" aria-modal="false" aria-labelledby={dialogId}>
          <p id={dialogId}>Delete this mix? It disappears from every list and page.</p>
          <div className={styles.confirmActions}>
            <button
              type="button"
              className={buttons.primary}
              disabled={loading}
              onClick={async () => {
                try {
                  await deactivate({ variables: { mixId: mix.id } });
                  navigate(userName ? `/profile/${userName}` : '/home');
                } catch {
                  // Shown below.
                }
              }}
            >
              {loading ? 'Deleting…' : 'Delete'}
            </button>
            <button ref={cancel} type="button" className={buttons.secondary} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
          {error ? (
            <p className={styles.inlineError} role="alert">
              {error.message}
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/** Mix card: cover, title, creator, genre, 'New', distance, date, listeners and stats, delete, save, share, play (docs/mix-page.md#mix-card). */
export function MixCard({ mix, shared = false, preview = false }: MixCardProps) {
  const player = usePlayer();
  const { copied, copy } = useCopyLink();
  const [statsOpen, setStatsOpen] = useState(false);
  const statsId = useId();
  const { data: statsData } = useQuery(MixStatsDocument, { variables: { mixId: mix.id } });
  const isCurrent = player.mix?.id === mix.id;
  const playing = isCurrent && player.playing;
  const owner = mix.owner;
  const ownerName = owner.displayName || owner.userName || 'Unknown DJ';
  const profileLink = owner.userName ? (shared ? `/shared-profile/${owner.userName}` : `/profile/${owner.userName}`) : null;
  // The server answers no distance for the viewer's own mix (its mix policy decides); the card shows what it gets.
  const distance = shared ? null : formatDistance(mix.distanceKm);
  const listeners = statsData?.mixStats.listeners;
  const title = truncate(mix.title, CARD_TITLE_CHARS);
  const mixLink = shared ? `/shared-mix/${mix.id}` : `/mix/${mix.id}`;
  const date = useDateLabel(mix.publishedAt ?? mix.createdAt);
  const [reporting, setReporting] = useState(false);
  // Signed-in members report others' mixes (savedByMe is null when signed out); the menu takes the focus back after.
  const canReport = !shared && !mix.isOwner && mix.savedByMe !== null && mix.savedByMe !== undefined;
  const cardRef = useRef<HTMLElement>(null);

  return (
    <article ref={cardRef} className={styles.card} aria-label={mix.title}>
      <div className={styles.coverWrap}>
        <img className={styles.cover} src={mix.coverUrl} alt={`Cover of ${mix.title}`} width={400} height={400} fetchPriority="high" />
        <button
          type="button"
          className={styles.play}
          onClick={() => player.toggle(toPlayerMix(mix))}
          aria-label={playing ? `Pause ${mix.title}` : `Play ${mix.title}`}
        >
          {playing ? <PauseIcon width={30} height={30} /> : <PlayIcon width={30} height={30} />}
        </button>
      </div>

      <div className={styles.body}>
        <div className={styles.badges}>
          <span className={styles.genre}>{genreLabel(mix.genre)}</span>
          {mix.isNewUpload ? <span className={styles.new}>New</span> : null}
          {distance ? (
            <span className={styles.distance} title="Distance from you">
              {distance}
            </span>
          ) : null}
        </div>
        <h2 className={styles.title} title={mix.title}>
          {preview ? (
            <Link to={mixLink} className={styles.titleLink}>
              {title}
            </Link>
          ) : (
            title
          )}
        </h2>
        <p className={styles.creator}>
          by{' '}
          {profileLink ? (
            <Link to={profileLink} className={styles.creatorLink}>
              {ownerName}
            </Link>
          ) : (
            ownerName
          )}
        </p>
        <p className={styles.muted}>{date}</p>

        <div className={styles.actions}>
          <button
            type="button"
            className={styles.listenersButton}
            aria-expanded={statsOpen}
            aria-controls={statsId}
            onClick={() => setStatsOpen((open) => !open)}
          >
            <HeadphonesIcon width={18} height={18} />
            {listeners === undefined ? '–' : listeners} {listeners === 1 ? 'listener' : 'listeners'}
          </button>
          {!shared && mix.savedByMe !== null && mix.savedByMe !== undefined ? (
            <SaveMixButton mixId={mix.id} saved={mix.savedByMe} title={mix.title} />
          ) : null}
          <span className={styles.shareWrap}>
            <button
              type="button"
              className={styles.iconButton}
              onClick={() => copy(sharedMixUrl(mix.id))}
              aria-label="Copy link to this mix"
            >
              <ShareIcon width={20} height={20} />
            </button>
            {copied ? (
              <span className={styles.bubble} role="status">
                Copied mix
              </span>
            ) : null}
          </span>
          {mix.isOwner && !shared ? <DeleteControl mix={mix} /> : null}
          {canReport ? <MixCardMenu title={mix.title} actions={[{ label: 'Report this mix', run: () => setReporting(true) }]} /> : null}
        </div>
        {reporting ? (
          <ReportDialog
            targetKind="MIX"
            targetId={mix.id}
            targetName={mix.title}
            onClose={() => {
              setReporting(false);
              cardRef.current?.querySelector<HTMLButtonElement>('[aria-label^="More actions"]')?.focus();
            }}
          />
        ) : null}
        <div id={statsId} hidden={!statsOpen}>
          {statsOpen ? <StatsPanel mixId={mix.id} /> : null}
        </div>

        {preview && mix.tracks && mix.tracks.length > 0 ? (
          <ol className={styles.preview} aria-label="First tracks">
            {mix.tracks.slice(0, PREVIEW_TRACKS).map((entry) => (
              <li key={entry.position}>
                <span className={styles.previewTitle}>{truncate(entry.track.title, PREVIEW_TITLE_CHARS)}</span>
                <span className={styles.muted}>
                  {truncate(entry.track.creators.map((creator) => creator.name).join(', '), PREVIEW_CREATOR_CHARS)}
                </span>
              </li>
            ))}
          </ol>
        ) : null}
      </div>
    </article>
  );
}
