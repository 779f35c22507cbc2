/**
 * What a search document holds (pure): the words of each field, folded as the catalogue lookup folds them (case,
 * accents, punctuation aside), and the key that tells an exact title (docs/search.md#ranking).
 */
import { GENRES } from '../../shared/domain.js';
import { words } from '../tracks/index.js';

/** The kinds of document, as stored. */
export const KIND = { mix: 1, member: 2, track: 3 } as const;
export type Kind = keyof typeof KIND;
export const KIND_OF_CODE: Record<number, Kind> = { 1: 'mix', 2: 'member', 3: 'track' };

/** A document's words by field: `t` its title (a member's display name), `n` names (DJ, creators, user name), `o` the rest. */
export interface DocBody {
  t: string[];
  n: string[];
  o: string[];
}

/**
 * How much a field's match counts: titles fully (a member's display name is their title, so a typed name finds the
 * member before the mixes and tracks that credit them), names a little less, genre and label less still.
 */
export const FIELD_WEIGHT: Record<keyof DocBody, number> = { t: 1, n: 0.95, o: 0.7 };

const unique = (list: string[]) => [...new Set(list)];

/** The exact-title key: the title's words joined by single spaces. */
export const nameKey = (text: string): string => words(text).join(' ').slice(0, 300);

export function mixBody(mix: { title: string; genre: string; displayName: string; userName: string | null }): DocBody {
  return {
    t: unique(words(mix.title)),
    n: unique([...words(mix.displayName), ...words(mix.userName ?? '')]),
    o: unique(words(GENRES[mix.genre as keyof typeof GENRES] ?? mix.genre)),
  };
}

export function memberBody(member: { displayName: string; userName: string }): DocBody {
  return { t: unique(words(member.displayName)), n: unique(words(member.userName)), o: [] };
}

export function trackBody(track: { title: string; creators: { name: string }[]; label: { name: string } | null }): DocBody {
  return {
    t: unique(words(track.title)),
    n: unique(track.creators.flatMap((creator) => words(creator.name))),
    o: unique(words(track.label?.name ?? '')),
  };
}

export const bodyWords = (body: DocBody): string[] => unique([...body.t, ...body.n, ...body.o]);
