/** User types, code -> label (docs/rules.md#user-types). Unknown codes display as Listener. */
export const USER_TYPES = {
  listener: 'Listener',
  dj: 'DJ',
  'dj-creator': 'DJ Creator',
  creator: 'Creator',
  artist: 'Artist',
  engineer: 'Engineer',
  agent: 'Agent',
  retailer: 'Retailer',
  label: 'Label',
  promoter: 'Promoter',
  distributor: 'Distributor',
  other: 'Other',
} as const;
export type UserTypeCode = keyof typeof USER_TYPES;
export const USER_TYPE_CODES = Object.keys(USER_TYPES) as UserTypeCode[];
export const DEFAULT_USER_TYPE: UserTypeCode = 'listener';

export function isUserTypeCode(value: unknown): value is UserTypeCode {
  return typeof value === 'string' && Object.hasOwn(USER_TYPES, value);
}

/** Genres, code -> label ('all' is a filter, never a mix's genre) (docs/rules.md#genres). */
export const GENRES = {
  house: 'House',
  deep_house: 'Deep House',
  soulful_house: 'Soulful House',
  garage: 'Garage',
  afro_house: 'Afro House',
  nu_disco: 'Nu Disco',
  jackin_house: 'Jackin House',
  tech_house: 'Tech House',
  techno: 'Techno',
  classic_house: 'Classic House',
  edm: 'EDM',
  soul_funk_disco: 'Soul / Funk / Disco',
  afro_latin: 'Afro / Latin',
  progressive_house: 'Progressive House',
  minimal_deep_tech: 'Minimal / Deep Tech',
  lounge_chill_out: 'Lounge / Chill Out',
  electronica: 'Electronica',
  broken_beat_nu_jazz: 'Broken Beat / Nu Jazz',
  electro_house: 'Electro House',
  leftfield: 'Leftfield',
  rnb_hip_hop: 'R&B / Hip Hop',
} as const;
export type GenreCode = keyof typeof GENRES;
export const GENRE_CODES = Object.keys(GENRES) as GenreCode[];

/** The distance filter's ceiling and default, in km; the feed reads it as "everywhere" (docs/home-feed.md#filter). */
export const FEED_MAX_RADIUS_KM = 20_000;

/** Entries in an upload's tracklist (docs/upload.md#tracklist-rules). */
export const TRACKLIST_MIN = 5;
export const TRACKLIST_MAX = 30;
