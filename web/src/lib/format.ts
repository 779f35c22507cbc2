import { UTCDateMini } from '@date-fns/utc/date/mini';
import { GENRES, type GenreCode, USER_TYPES } from '@mixcrate/api/domain';
import { format } from 'date-fns';
import type { Genre, UserType } from '../gql/graphql';

/** 1234567 -> '1,234,567'. Not Intl.NumberFormat: its first use loads locale data, a long task on a slow phone. */
const withThousands = (whole: number) => String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Whole kilometres with thousands separators and 'km'; nothing when unknown (docs/rules.md#display-formats). */
export function formatDistance(km: number | null | undefined): string | null {
  if (km === null || km === undefined || !Number.isFinite(km)) return null;
  return `${withThousands(Math.round(km))} km`;
}

/** date-fns' UTC context. The mini date: the full one builds three Intl formatters when loaded (a long task on a phone). */
const inUtc = (value: Date | number | string) => new UTCDateMini(+new Date(value));

/** Dates, 'MMM Do YY' (Nov 22nd 26), in the browser's time zone or, for a server render, in UTC (docs/rules.md#display-formats). */
export function formatDate(value: string | Date, zone: 'local' | 'UTC' = 'local'): string {
  return format(typeof value === 'string' ? new Date(value) : value, 'MMM do yy', zone === 'UTC' ? { in: inUtc } : undefined);
}

/** Longer text gets '...' (docs/rules.md#display-formats). */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** Name and title truncation by window width (docs/rules.md#display-formats). */
export function charsForWidth(width: number): number {
  if (width < 250) return 10;
  if (width < 300) return 16;
  if (width < 400) return 20;
  if (width < 450) return 26;
  if (width < 500) return 33;
  if (width < 900) return 35;
  return 50;
}

export const truncateForWidth = (text: string, width: number) => truncate(text, charsForWidth(width));

/** Player clock: m:ss, or h:mm:ss from an hour. */
export function formatClock(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}

/** GraphQL enums are the REST codes in capitals (DEEP_HOUSE = deep_house). */
export function genreCode(genre: Genre): GenreCode | 'all' {
  return genre.toLowerCase() as GenreCode | 'all';
}

export function genreLabel(genre: Genre): string {
  const code = genreCode(genre);
  return code === 'all' ? 'All' : GENRES[code];
}

export function userTypeLabel(type: UserType): string {
  return USER_TYPES[type.toLowerCase().replace('_', '-') as keyof typeof USER_TYPES] ?? USER_TYPES.listener;
}

/** The store search links (docs/mix-page.md#tracklist), built from a track's title and first creator. */
export function storeLinks(title: string, creators: readonly { name: string }[]): { store: string; url: string }[] {
  const query = encodeURIComponent([creators[0]?.name, title].filter(Boolean).join(' '));
  return [
    { store: 'Beatport', url: `https://www.beatport.com/search?q=${query}` },
    { store: 'Traxsource', url: `https://www.traxsource.com/search?term=${query}` },
  ];
}

/** Cents as US dollars: 400 -> '$4.00' (prices, see docs/payments.md#prices). */
export function formatPrice(cents: number): string {
  return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}
