import { Suspense } from 'react';
import { Link } from 'react-router';
import buttons from '../../components/Button.module.css';
import { ListeningNow } from '../../components/ListeningNow';
import { MixCard } from '../../components/MixCard';
import { Spinner } from '../../components/Spinner';
import { FileNoticeForm } from '../../components/trust/FileNoticeForm';
import { MixHold } from '../../components/trust/MixHold';
import type { MixPageQuery } from '../../gql/graphql';
import styles from './MixPage.module.css';
import { Tracklist } from './Tracklist';
import { TracklistVersions } from './TracklistVersions';

export type PageMix = NonNullable<MixPageQuery['mix']>;

/** The mix-not-found texts; the private page offers 'Back to home', the shared page nothing (docs/mix-page.md#not-found). */
export function MixNotFound({ backHome }: { backHome: boolean }) {
  return (
    <section className={styles.notFound} aria-labelledby="mix-not-found">
      <h1 id="mix-not-found">No mix found :-/</h1>
      <p className={styles.muted}>Sorry, that mix may have been removed.</p>
      {backHome ? (
        <Link to="/home" className={buttons.primary}>
          Back to home
        </Link>
      ) : null}
    </section>
  );
}

/** A mix taken down after a copyright notice or by a moderator: the API answers 451, and the page says so (docs/trust.md#hidden-means-hidden). */
export function MixUnavailable({ backHome }: { backHome: boolean }) {
  return (
    <section className={styles.notFound} aria-labelledby="mix-unavailable">
      <h1 id="mix-unavailable">Unavailable for legal reasons</h1>
      <p className={styles.muted}>
        This mix was taken down after a copyright notice or by a moderator, and cannot be played here. If it is restored, this link works
        again.
      </p>
      {backHome ? (
        <Link to="/home" className={buttons.primary}>
          Back to home
        </Link>
      ) : null}
    </section>
  );
}

export function MixLoading() {
  return <Spinner label="Loading mix" />;
}

/** The mix card and its 'Tracklist', shared by /mix/{id} and /shared-mix/{id}; on /mix/{id}, the owner's tracklist versions. */
export function MixView({ mix, shared }: { mix: PageMix; shared: boolean }) {
  return (
    <div className={styles.page}>
      {shared ? (
        <p className={styles.sharedBy}>
          Shared by: <strong>{mix.owner.displayName || mix.owner.userName}</strong>
        </p>
      ) : null}
      {mix.isOwner && mix.status === 'DRAFT' ? <p className={styles.notice}>This mix is a draft: only you can see it.</p> : null}
      {mix.isOwner && mix.isExpired ? <p className={styles.notice}>Hosting for this mix has ended: only you can see it.</p> : null}
      {mix.isOwner && mix.moderationState ? <MixHold mixId={mix.id} state={mix.moderationState} /> : null}
      {/* Moderators see a held mix that is not theirs; they are told it is hidden from everyone else. */}
      {!mix.isOwner && mix.moderationState ? (
        <p className={styles.notice}>
          {mix.moderationState === 'HIDDEN' ? 'Hidden' : 'Removed'}: only its owner and moderators see this mix (
          <Link to="/moderation">Moderation</Link>).
        </p>
      ) : null}
      <MixCard mix={mix} shared={shared} />
      {shared ? null : <FileNoticeForm mixId={mix.id} />}
      <ListeningNow mixId={mix.id} initial={mix.listeningNow ?? 0} />
      <section aria-labelledby="tracklist-title" className={styles.tracklistSection}>
        <h2 id="tracklist-title" className={styles.sectionTitle}>
          Tracklist
        </h2>
        {/* A boundary: a server-rendered page hydrates the tracklist after the card, as a separate piece of work. The
            card, with Play, is hydrated with the page, so a click held before hydration is answered with it. */}
        <Suspense>
          <Tracklist mixId={mix.id} tracks={mix.tracks} shared={shared} />
        </Suspense>
      </section>
      {!shared && mix.isOwner && mix.status === 'PUBLISHED' ? <TracklistVersions mixId={mix.id} /> : null}
    </div>
  );
}
