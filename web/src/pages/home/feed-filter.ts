import { FEED_MAX_RADIUS_KM, GENRE_CODES, type GenreCode } from '@mixcrate/api/domain';
import type { Genre } from '../../gql/graphql';

export interface FeedFilter {
  genre: GenreCode | 'all';
  radiusKm: number;
}

/** Defaults: genre 'all', and the distance filter at its ceiling (everywhere) (docs/home-feed.md#filter). */
export const DEFAULT_FILTER: FeedFilter = { genre: 'all', radiusKm: FEED_MAX_RADIUS_KM };

const isGenreCode = (value: string | null): value is GenreCode => value !== null && (GENRE_CODES as string[]).includes(value);

/** The filter as kept in the address (?genre=techno&km=500), so a filtered home can be reloaded and shared. */
export function readFilter(params: URLSearchParams): FeedFilter {
  const genre = params.get('genre');
  const km = Number(params.get('km'));
  return {
    genre: isGenreCode(genre) ? genre : DEFAULT_FILTER.genre,
    radiusKm: params.has('km') && Number.isInteger(km) && km >= 0 && km <= FEED_MAX_RADIUS_KM ? km : DEFAULT_FILTER.radiusKm,
  };
}

export function writeFilter({ genre, radiusKm }: FeedFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (genre !== DEFAULT_FILTER.genre) params.set('genre', genre);
  if (radiusKm !== DEFAULT_FILTER.radiusKm) params.set('km', String(radiusKm));
  return params;
}

export const toGraphQLGenre = (genre: FeedFilter['genre']): Genre => genre.toUpperCase() as Genre;

/** Previous/next with wraparound (carousel, see docs/home-feed.md#the-carousel). */
export function wrapIndex(index: number, total: number): number {
  if (total <= 0) return 0;
  return ((index % total) + total) % total;
}
