import { VISIBLE_MIX_SQL } from '../mixes/index.js';

/**
 * What the "For you" row may hold and why (docs/home-feed.md#for-you). Anyone may ask: a member gets their own row, a
 * visitor the week's most listened mixes everywhere (nothing about them is known). The SQL fragments here are the rule;
 * the service only assembles them into its one statement.
 */

/** Why a mix is in the row, in the order the row is filled. */
export const REASON_KINDS = ['new_from_followed', 'saved', 'finished', 'popular_near_you', 'popular'] as const;
export type ReasonKind = (typeof REASON_KINDS)[number];

/** A followed member's mix counts as new this many days after it was published. */
export const NEW_FROM_FOLLOWED_DAYS = 30;
/** "Popular" counts the listens started in the last this many days. */
export const POPULAR_DAYS = 7;
/**
 * A listen counts as finished when it lasted at least this share of the mix: the player ends a listen at the mix's end
 * (its length clamped to the mix's, docs/player-and-listens.md#listens), and a listener who skips the last minute of
 * an hour still finished it.
 */
export const FINISHED_SHARE = 0.9;
/**
 * Popular near you: a mix's listens this week, divided by (1 + km / this): a mix 50 km away needs 1.5 times the listens
 * of one next door, one 500 km away 6 times. Distances are between cells, in whole km (docs/profiles.md#location-privacy).
 */
export const NEAR_SCALE_KM = 100;
/** A mix whose place is unknown weighs as one on the far side of the earth. */
export const UNKNOWN_DISTANCE_KM = 20_000;

/** SQL: the listen `l` of the mix `m` was finished (the mix has a length, and the listen covered FINISHED_SHARE of it). */
export const FINISHED_LISTEN_SQL = (l: string, m: string) =>
  `${l}.ended_at is not null and ${m}.duration_seconds is not null
   and extract(epoch from ${l}.ended_at - ${l}.started_at) >= ${FINISHED_SHARE} * ${m}.duration_seconds`;

/**
 * SQL over `mix` (unqualified columns, as the mixes policy's fragments): the mix may be recommended to the viewer
 * (`:viewer`, null for a visitor): anyone may see it (published, not deactivated, hosting not over) and it is not theirs.
 */
export const RECOMMENDABLE_SQL = `${VISIBLE_MIX_SQL} and owner_id is distinct from :viewer::uuid`;

export interface Reason {
  kind: ReasonKind;
  /** The mix the reason names: the one the viewer saved or finished (saved, finished). */
  relatedMixTitle: string | null;
  /** The member the reason names: the followed DJ (new_from_followed). */
  relatedMemberName: string | null;
}

/** The words of a reason, as the row shows them under each card. */
export function reasonText(reason: Reason): string {
  switch (reason.kind) {
    case 'new_from_followed':
      return `New from ${reason.relatedMemberName ?? 'a member you follow'}`;
    case 'saved':
      return `Because you saved ${reason.relatedMixTitle ?? 'a mix'}`;
    case 'finished':
      return `Because you finished ${reason.relatedMixTitle ?? 'a mix'}`;
    case 'popular_near_you':
      return 'Popular near you';
    case 'popular':
      return 'Popular this week';
  }
}

/** How far-away listens are discounted: the weight of a mix `km` whole kilometres away (null: place unknown). */
export const distanceWeight = (km: number | null): number => 1 / (1 + (km ?? UNKNOWN_DISTANCE_KM) / NEAR_SCALE_KM);
