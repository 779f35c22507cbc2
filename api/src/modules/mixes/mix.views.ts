import type { PageEnds } from '../../shared/cursor.js';
import type { MemberView } from '../users/index.js';
import type { IMix, MIX_STATUSES } from './mix.entity.js';

/** A mix as every page and list shows it: plain data read with one query, and its owner. */
export interface MixView {
  id: string;
  title: string;
  genre: string;
  cover: string;
  mp3: string;
  durationSeconds: number | null;
  latitude: number | null;
  longitude: number | null;
  status: (typeof MIX_STATUSES)[number];
  publishedAt: Date | null;
  expiresAt: Date | null;
  createdAt: Date;
  owner: MemberView;
}

export interface MixListItem {
  mix: MixView;
  /** Whole kilometres from the feed's point or the viewer's cell; null when either place is unknown or the viewer owns the mix. */
  distanceKm: number | null;
  /** Whether the viewer saved the mix, when the page's statement answered it (else ask the library). */
  savedByViewer?: boolean;
  cursor: string;
}

export interface MixPage {
  items: MixListItem[];
  /**
   * How many match across all pages. Counting can take longer than the page itself, so it runs alongside: the page's
   * mixes (and what callers load for them) need not wait for it.
   */
  totalCount: Promise<number>;
  /** True when more match than were counted: totalCount is then a lower bound (the feed's wide circles, see planFeed). */
  totalCountIsLowerBound: boolean;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

/** A page of the mixes that play a track: each mix with where the track starts in it, when known. */
export interface TrackMixPage extends PageEnds {
  items: (MixListItem & { startTime: number | null })[];
  totalCount: Promise<number>;
}

export interface MixDetail {
  mix: MixView;
  /** Null when unknown, and for the viewer's own mix. */
  distanceKm: number | null;
}

/**
 * The columns of a MixView: the mix as `m` and what others see of its owner as `u` (joined in the same statement, see
 * WITH_OWNER), each a column of its own.
 */
export const MIX_COLUMNS = `m.id, m.title, m.genre, m.cover, m.mp3, m.duration_seconds, m.latitude, m.longitude, m.status,
  m.published_at, m.expires_at, m.created_at, u.id as owner_id, u.user_name as owner_user_name,
  u.display_name as owner_display_name, u.user_type as owner_user_type, u.bio as owner_bio, u.user_image as owner_user_image,
  u.created_at as owner_created_at, u.cell_latitude as owner_cell_latitude, u.cell_longitude as owner_cell_longitude`;
export const WITH_OWNER = 'join app_user u on u.id = m.owner_id';

export interface MixRow {
  id: string;
  owner_id: string;
  owner_user_name: string | null;
  owner_display_name: string;
  owner_user_type: string;
  owner_bio: string;
  owner_user_image: string | null;
  owner_created_at: Date | string;
  owner_cell_latitude: number | null;
  owner_cell_longitude: number | null;
  title: string;
  genre: string;
  cover: string;
  mp3: string;
  duration_seconds: number | null;
  latitude: number | null;
  longitude: number | null;
  status: MixView['status'];
  published_at: Date | string | null;
  expires_at: Date | string | null;
  created_at: Date | string;
}

const dateOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));

/** The MixView of a row read with MIX_COLUMNS. */
export function mixViewOfRow(row: MixRow): MixView {
  return {
    id: row.id,
    title: row.title,
    genre: row.genre,
    cover: row.cover,
    mp3: row.mp3,
    durationSeconds: row.duration_seconds,
    latitude: row.latitude,
    longitude: row.longitude,
    status: row.status,
    publishedAt: dateOrNull(row.published_at),
    expiresAt: dateOrNull(row.expires_at),
    createdAt: new Date(row.created_at),
    owner: {
      id: row.owner_id,
      userName: row.owner_user_name,
      displayName: row.owner_display_name,
      userType: row.owner_user_type,
      bio: row.owner_bio,
      userImage: row.owner_user_image,
      createdAt: new Date(row.owner_created_at),
      cellLatitude: row.owner_cell_latitude,
      cellLongitude: row.owner_cell_longitude,
    },
  };
}

/** The MixView of an entity with its owner loaded (after a change made through the ORM). */
export function mixViewOf(mix: IMix): MixView {
  return {
    id: mix.id,
    title: mix.title,
    genre: mix.genre,
    cover: mix.cover,
    mp3: mix.mp3,
    durationSeconds: mix.durationSeconds ?? null,
    latitude: mix.latitude ?? null,
    longitude: mix.longitude ?? null,
    status: mix.status,
    publishedAt: mix.publishedAt ?? null,
    expiresAt: mix.expiresAt ?? null,
    createdAt: mix.createdAt,
    owner: mix.owner,
  };
}
