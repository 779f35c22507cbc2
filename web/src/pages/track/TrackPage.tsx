import { useQuery } from '@apollo/client/react';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAuth } from '../../auth/auth';
import { AppShell } from '../../components/AppShell';
import buttons from '../../components/Button.module.css';
import { ClaimForm } from '../../components/claims/ClaimForm';
import { Spinner } from '../../components/Spinner';
import {
  ClaimSubject,
  type TrackMixEdgeFieldsFragment,
  TrackMixesPageDocument,
  TrackPageDocument,
  type TrackPageQuery,
} from '../../gql/graphql';
import { formatClock } from '../../lib/format';
import { usePlayerMode } from '../../player/PlayerProvider';
import styles from './TrackPage.module.css';

type Track = NonNullable<TrackPageQuery['track']>;

/** One mix that plays the track: its cover, title (to the mix page), DJ, and where in it the track starts. */
function MixRow({ edge, signedIn }: { edge: TrackMixEdgeFieldsFragment; signedIn: boolean }) {
  const mix = edge.node;
  const dj = mix.owner.displayName || mix.owner.userName || 'Unknown DJ';
  return (
    <li className={styles.mixRow}>
      <img className={styles.mixCover} src={mix.coverUrl} alt="" width={56} height={56} loading="lazy" />
      <span>
        <Link className={styles.mixTitle} to={signedIn ? `/mix/${mix.id}` : `/shared-mix/${mix.id}`}>
          {mix.title}
        </Link>
        <br />
        <span className={styles.muted}>by {dj}</span>
      </span>
      <span className={[styles.muted, styles.startTime].join(' ')}>
        {edge.startTime !== null && edge.startTime !== undefined ? `plays at ${formatClock(edge.startTime)}` : 'time not given'}
      </span>
    </li>
  );
}

/** The page after `after`, with its own "Show more" for the page after it. */
function MoreMixes({ trackId, after, signedIn }: { trackId: string; after: string; signedIn: boolean }) {
  const [next, setNext] = useState<string | null>(null);
  const { data, loading, error, refetch } = useQuery(TrackMixesPageDocument, { variables: { id: trackId, after } });
  const page = data?.track?.mixes;
  if (!page) {
    if (loading) return <Spinner label="Loading more mixes" />;
    return error ? (
      <p role="alert" className={styles.muted}>
        More mixes could not be loaded.{' '}
        <button type="button" className={buttons.secondary} onClick={() => void refetch().catch(() => undefined)}>
          Try again
        </button>
      </p>
    ) : null;
  }
  return (
    <>
      <ul className={styles.mixes} aria-label="More mixes">
        {page.edges.map((edge) => (
          <MixRow key={edge.node.id} edge={edge} signedIn={signedIn} />
        ))}
      </ul>
      {next ? (
        <MoreMixes trackId={trackId} after={next} signedIn={signedIn} />
      ) : page.pageInfo.hasNextPage && page.pageInfo.endCursor ? (
        <button type="button" className={buttons.secondary} onClick={() => setNext(page.pageInfo.endCursor)}>
          Show more mixes
        </button>
      ) : null}
    </>
  );
}

function TrackView({ track, signedIn }: { track: Track; signedIn: boolean }) {
  const [more, setMore] = useState<string | null>(null);
  const { mixes } = track;
  // A credited name held by a verified member links to their profile (docs/creators.md#verified-creators).
  const holderOf = (subject: ClaimSubject, name: string) =>
    track.nameHolders.find((holder) => holder.subject === subject && holder.name === name)?.userName;
  const credit = (subject: ClaimSubject, name: string) => {
    const holder = holderOf(subject, name);
    return holder ? (
      <Link to={`/profile/${holder}`} title={`${name} is verified on mixcrate`}>
        {name}
      </Link>
    ) : (
      name
    );
  };
  const claimable: { subject: ClaimSubject; name: string }[] = [
    ...track.creators.map((creator) => ({ subject: 'CREATOR' as const, name: creator.name })),
    ...(track.label ? [{ subject: 'LABEL' as const, name: track.label.name }] : []),
  ];
  return (
    <article className={styles.page} aria-labelledby="track-title">
      <header className={styles.header}>
        {track.coverUrl ? (
          <img className={styles.cover} src={track.coverUrl} alt={`Cover of ${track.title}`} width={120} height={120} />
        ) : (
          <span className={styles.coverBlank} aria-hidden="true" />
        )}
        <div>
          <h1 id="track-title" className={styles.title}>
            {track.title}
          </h1>
          <div>
            {track.creators.map((creator, index) => (
              <span key={`${creator.id ?? ''}-${creator.name}`}>
                {index > 0 ? ', ' : ''}
                {credit('CREATOR', creator.name)}
              </span>
            ))}
          </div>
          {track.label ? <div className={styles.muted}>{credit('LABEL', track.label.name)}</div> : null}
          <div className={styles.badges}>
            {track.newRelease ? <span className={styles.badge}>New release</span> : null}
            {track.isManual ? <span className={styles.badge}>Added by hand</span> : null}
          </div>
        </div>
      </header>
      {signedIn && claimable.length > 0 ? <ClaimForm names={claimable} trackId={track.id} /> : null}
      <section aria-labelledby="track-mixes">
        <h2 id="track-mixes" className={styles.sectionTitle}>
          Played in {mixes.totalCount} {mixes.totalCount === 1 ? 'mix' : 'mixes'}
        </h2>
        {mixes.edges.length === 0 ? (
          <p className={styles.muted}>No published mix plays this track yet.</p>
        ) : (
          <ul className={styles.mixes} aria-label="Mixes">
            {mixes.edges.map((edge) => (
              <MixRow key={edge.node.id} edge={edge} signedIn={signedIn} />
            ))}
          </ul>
        )}
        {more ? (
          <MoreMixes trackId={track.id} after={more} signedIn={signedIn} />
        ) : mixes.pageInfo.hasNextPage && mixes.pageInfo.endCursor ? (
          <button type="button" className={buttons.secondary} onClick={() => setMore(mixes.pageInfo.endCursor)}>
            Show more mixes
          </button>
        ) : null}
      </section>
    </article>
  );
}

/**
 * `/track/{id}`, as Mixcloud's track pages: the track and the published mixes that play it, newest first, each with
 * where the track starts. Public (tracklists link here from shared mixes too); the shell follows the sign-in.
 */
export function TrackPage() {
  const { token } = useAuth();
  const signedIn = Boolean(token);
  usePlayerMode(signedIn ? 'private' : 'public');
  const { id = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(TrackPageDocument, { variables: { id } });
  const track = data?.track;
  let content: ReactNode;
  if (track) content = <TrackView track={track} signedIn={signedIn} />;
  else if (loading) content = <Spinner label="Loading track" />;
  else if (error)
    content = (
      <section className={styles.notFound} aria-labelledby="track-failed">
        <h1 id="track-failed">This track could not be loaded</h1>
        <p className={styles.muted} role="alert">
          Check your connection and try again.
        </p>
        <button type="button" className={buttons.secondary} onClick={() => void refetch().catch(() => undefined)}>
          Try again
        </button>
      </section>
    );
  else
    content = (
      <section className={styles.notFound} aria-labelledby="track-not-found">
        <h1 id="track-not-found">No track found</h1>
        <p className={styles.muted}>That track is not in the catalogue. Check the link, or find tracks in a mix’s tracklist.</p>
        <Link to={signedIn ? '/home' : '/'} className={buttons.primary}>
          Back to home
        </Link>
      </section>
    );
  return (
    <AppShell variant={signedIn ? 'private' : 'public'} label={track?.title ?? 'Track'}>
      {content}
    </AppShell>
  );
}
