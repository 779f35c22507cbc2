import type { IMix } from './mix.entity.js';
import { MixErrors } from './mix.errors.js';
import { isExpired } from './mix-lifecycle.js';

/**
 * Who may see and change a mix, in one place. The SQL fragments name `mix` columns unqualified, so they read the same
 * in any statement over `mix` (alone or joined with tables that lack those columns); the functions say the same for
 * a mix already loaded.
 */

/** Published and not deactivated: the rows the feed's partial indexes hold (their predicate cannot use now()). */
export const PUBLISHED_ACTIVE_MIX_SQL = `status = 'published' and deactivated_at is null`;

/**
 * Its owner is suspended (docs/trust.md#hidden-means-hidden): `suspendedSql` of the owner, read from the copy of their
 * suspension on the mix's own row (`owner_suspended_until`, kept by triggers: null when not suspended, 'infinity' for
 * no end), so the feed's walks and counts test each row they read and probe no other table. A suspension that ended
 * by time no longer holds here, with no write.
 */
export const OWNER_SUSPENDED_SQL = '(owner_suspended_until is not null and owner_suspended_until > now())';
/** No moderation hold on the mix and its owner not suspended (docs/trust.md#hidden-means-hidden). */
export const UNHELD_MIX_SQL = `moderation_state is null and not ${OWNER_SUSPENDED_SQL}`;

/** Anyone may see this mix: published, not deactivated, hosting not over, not held by a moderator or a notice, its owner not suspended. */
export const VISIBLE_MIX_SQL = `${PUBLISHED_ACTIVE_MIX_SQL} and (expires_at is null or expires_at > now()) and ${UNHELD_MIX_SQL}`;

/** The viewer (bound as `:viewer`, null for nobody) may open this mix: anyone a visible one, its owner any of theirs until deactivated. */
export const OPENABLE_BY_VIEWER_SQL = `deactivated_at is null and ((${VISIBLE_MIX_SQL}) or owner_id = :viewer)`;

/** A member's list of mixes: others see the visible ones; the member also sees their own expired ones. */
export const listedByOwnerSql = (viewerIsOwner: boolean) => (viewerIsOwner ? PUBLISHED_ACTIVE_MIX_SQL : VISIBLE_MIX_SQL);

export interface MixAccessFacts {
  status: IMix['status'];
  deactivated: boolean;
  expiresAt: Date | null;
  ownerId: string;
  /** A moderation hold (a notice, a moderator): the mix is its owner's alone. */
  held: boolean;
  /** Its owner is suspended: the mix is nobody's to see. */
  ownerSuspended: boolean;
}

/** Who may fetch a stored file: anyone (and shared caches), only the holder of its link (private caching), or nobody. */
export type FileAccess = 'public' | 'private' | null;

/** How long an untouched draft is kept before it is removed with its files: from its last change, `ttlDays` days. */
export const draftKeptUntil = (lastChange: Date, ttlDays: number): Date => new Date(lastChange.getTime() + ttlDays * 24 * 60 * 60 * 1000);

export const mixPolicy = {
  /** VISIBLE_MIX_SQL, for a mix in hand. */
  isVisible(mix: MixAccessFacts, now = new Date()): boolean {
    return (
      mix.status === 'published' && !mix.deactivated && !isExpired({ expiresAt: mix.expiresAt }, now) && !mix.held && !mix.ownerSuspended
    );
  },

  /**
   * Why a mix the viewer may not open is refused: a held one (a notice, a takedown) answers "unavailable for legal
   * reasons" (451) rather than "not found", so a share link says what happened (docs/trust.md#hidden-means-hidden).
   */
  refusedForLegalReasons(mix: { held: boolean; ownerSuspended: boolean; deactivated: boolean }): boolean {
    return mix.held && !mix.ownerSuspended && !mix.deactivated;
  },

  /** Only the owner changes a mix (its tracklist, publishing, deactivating); a deactivated mix is gone for everyone. */
  assertCanChange(mix: Pick<MixAccessFacts, 'deactivated' | 'ownerId'> | null, viewerId: string): void {
    if (!mix || mix.deactivated) throw MixErrors.notFound();
    if (mix.ownerId !== viewerId) throw MixErrors.notYours();
  },

  /**
   * A mix's audio and cover follow the mix: public while it is visible; private while it is a draft (its random file
   * name has only been given to the uploader, who previews it before publishing); private to its owner once expired or
   * held; nobody's once deactivated or its owner suspended. The viewer is asked for only when it decides.
   */
  async fileAccess(mix: MixAccessFacts | null, viewerId: () => Promise<string | null>, now = new Date()): Promise<FileAccess> {
    const known = mixPolicy.fileAccessWithoutViewer(mix, now);
    if (known !== undefined) return known;
    return (await viewerId()) === mix?.ownerId ? 'private' : null;
  },

  /** `fileAccess` where the viewer does not matter; undefined where it does (an expired mix: its owner only). */
  fileAccessWithoutViewer(mix: MixAccessFacts | null, now = new Date()): FileAccess | undefined {
    if (!mix || mix.deactivated || mix.ownerSuspended) return null;
    if (mixPolicy.isVisible(mix, now)) return 'public';
    if (mix.status === 'draft') return 'private';
    return undefined;
  },

  /**
   * What only the owner sees of a mix (the tracks recognised in it, the job finding them): a deactivated mix is gone
   * for everyone; anyone else is refused with `notYours`.
   */
  assertIsOwner(mix: Pick<MixAccessFacts, 'deactivated' | 'ownerId'> | null, viewerId: string, notYours: () => Error): void {
    if (!mix || mix.deactivated) throw MixErrors.notFound();
    if (mix.ownerId !== viewerId) throw notYours();
  },

  /** "Is this my mix": the one comparison every answer's `isOwner` and the owner-only parts below use. */
  isOwner(viewerId: string | null, ownerId: string): boolean {
    // An owner id is never null, so an anonymous viewer (null) owns nothing.
    return viewerId === ownerId;
  },

  /** A mix's audience, who listened (`listeners`) and who saved it (`saved_by`), is its owner's to see (docs/permissions.md#owners). */
  seesAudience(viewerId: string | null, ownerId: string): boolean {
    return mixPolicy.isOwner(viewerId, ownerId);
  },

  /**
   * A published mix's tracklist versions (which tracks each listen paid) are its owner's to see
   * (docs/payments.md#tracklist-versions): GraphQL answers null to anyone else, REST a 403.
   */
  seesTracklistVersions(viewerId: string | null, ownerId: string): boolean {
    return mixPolicy.isOwner(viewerId, ownerId);
  },

  /** The distance badge is hidden on the viewer's own mix (the web shows what this answers) (docs/mix-page.md#mix-card). */
  distanceShown(viewerId: string | null, ownerId: string, distanceKm: number | null): number | null {
    return mixPolicy.isOwner(viewerId, ownerId) ? null : distanceKm;
  },
};
