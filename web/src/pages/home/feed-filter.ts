import { GENRE_CODES, type GenreCode } from '@mixcrate/api/domain';
import type { Genre } from '../../gql/graphql';

/** SPEC §5 distance filter: 0 to 20,000 km, step 1, default 20,000 (everywhere). Genre default 'all'. */
export const MAX_RADIUS_KM = 20_000;
export const DEFAULT_GENRE = 'all';

export interface FeedFilter {
  genre: GenreCode | 'all';
  radiusKm: number;
}

const isGenreCode = (value: string | null): value is GenreCode => value !== null && (GENRE_CODES as string[]).includes(value);

/** The filter as kept in the address (?genre=techno&km=500), so a filtered home can be reloaded and shared. */
export function readFilter(params: URLSearchParams): FeedFilter {
  const genre = params.get('genre');
  const km = Number(params.get('km'));
  return {
    genre: isGenreCode(genre) ? genre : DEFAULT_GENRE,
    radiusKm: params.has('km') && Number.isInteger(km) && km >= 0 && km <= MAX_RADIUS_KM ? km : MAX_RADIUS_KM,
  };
}

export function writeFilter({ genre, radiusKm }: FeedFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (genre !== DEFAULT_GENRE) params.set('genre', genre);
  if (radiusKm !== MAX_RADIUS_KM) params.set('km', String(radiusKm));
  return params;
}

export const toGraphQLGenre = (genre: FeedFilter['genre']): Genre => genre.toUpperCase() as Genre;

/** Previous/next with wraparound (SPEC §2 carousel). */
export function wrapIndex(index: number, total: number): number {
  if (total <= 0) return 0;
  return ((index % total) + total) % total;
}
