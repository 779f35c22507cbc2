/**
 * Typed rows as uploaders get them wrong, generated from catalogue tracks with a seed: typos (swaps, dropped, doubled
 * and wrong letters), swapped words, accents stripped, "feat." credits added or dropped, version suffixes written
 * differently ("(Original Mix)", "- Extended Edit", "rmx"), artist and title swapped, case. Each query keeps what tells
 * its track from the others (a remix keeps its remixer's name, an extended version the word "extended"). The ranking
 * test reports on a held-out seed that nothing was tuned on; tuning uses other seeds.
 */

import { fold, parseTitle, words } from '../../src/modules/tracks/catalogue/normalise.js';
import type { Creator } from '../../src/modules/tracks/track.entity.js';
import { Random } from '../../src/shared/random.js';

export interface CorruptedQuery {
  artist: string;
  title: string;
  /** The id of the track the row means. */
  expected: string;
  /** What was done to it. */
  kinds: string[];
}

export interface SourceTrack {
  id: string;
  title: string;
  creators: Pick<Creator, 'name'>[];
}

const KEYBOARD = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
function neighbour(random: Random, letter: string): string {
  for (const [row, line] of KEYBOARD.entries()) {
    const index = line.indexOf(letter);
    if (index < 0) continue;
    const options = [line[index - 1], line[index + 1], KEYBOARD[row - 1]?.[index], KEYBOARD[row + 1]?.[index]].filter(
      (item): item is string => Boolean(item),
    );
    return random.pick(options);
  }
  return random.pick([...'aeiou']);
}

/** One typo in a word: a swap of neighbours, a dropped, doubled or wrong letter. */
function typo(random: Random, word: string, kind = random.pick(['swap', 'drop', 'double', 'wrong'] as const)): string {
  const index = random.int(1, Math.max(1, word.length - 2));
  const letter = word[index] ?? '';
  if (kind === 'swap' && index + 1 < word.length) return word.slice(0, index) + word[index + 1] + letter + word.slice(index + 2);
  if (kind === 'drop') return word.slice(0, index) + word.slice(index + 1);
  if (kind === 'double') return word.slice(0, index) + letter + letter + word.slice(index + 1);
  const replaced = neighbour(random, letter.toLowerCase());
  return word.slice(0, index) + (letter === letter.toUpperCase() ? replaced.toUpperCase() : replaced) + word.slice(index + 1);
}

/** Replaces one word of at least `minLength` letters in `text` (a random one) by `change(word)`. */
function changeWord(random: Random, text: string, minLength: number, change: (word: string) => string): string | null {
  const spans = [...text.matchAll(/\p{L}+/gu)].filter((match) => match[0].length >= minLength);
  if (spans.length === 0) return null;
  const span = random.pick(spans);
  const start = span.index ?? 0;
  return text.slice(0, start) + change(span[0]) + text.slice(start + span[0].length);
}

const stripAccents = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ø/g, 'o')
    .replace(/Ø/g, 'O')
    .replace(/ß/g, 'ss')
    .replace(/ł/g, 'l');

/** The title without its version and featured parts, and those parts. */
function split(title: string): { base: string; feat: string | null; version: string | null } {
  let base = title;
  let feat: string | null = null;
  let version: string | null = null;
  const featMatch = /\s*\((?:feat\.|ft\.|featuring)\s+([^)]*)\)/i.exec(base);
  if (featMatch) {
    feat = featMatch[1] ?? null;
    base = base.replace(featMatch[0], '');
  }
  const versionMatch = /\s*(?:\(([^)]*)\)|\[([^\]]*)\]|\s-\s(.*))$/.exec(base);
  if (versionMatch) {
    version = versionMatch[1] ?? versionMatch[2] ?? versionMatch[3] ?? null;
    base = base.slice(0, versionMatch.index);
  }
  return { base: base.trim(), feat, version };
}

/** The version written another way that means the same. */
function restyleVersion(random: Random, version: string): string {
  const lower = version.toLowerCase();
  if (lower === 'original mix') return random.pick(['', ' - Original Mix', ' (original)', ' [Original Mix]']);
  if (lower.startsWith('extended')) return random.pick([' - Extended Edit', ' (Extended)', ' extended mix', ' [Extended Version]']);
  if (lower.startsWith('radio')) return random.pick([' - Radio Edit', ' (Radio Version)', ' radio edit']);
  const remix = /^(.*)\s+(remix|edit|rework)$/i.exec(version);
  if (remix) return random.pick([` - ${remix[1]} Remix`, ` [${remix[1]} Rmx]`, ` ${remix[1]} remix`, ` (${remix[1]} ${remix[2]})`]);
  return random.pick([` - ${version}`, ` [${version}]`]);
}

/** `count` corrupted rows for tracks of `tracks` (distinct tracks where possible), deterministic from `seed`. */
export function corruptQueries(tracks: readonly SourceTrack[], count: number, seed: number): CorruptedQuery[] {
  const random = new Random(`corruptions:${seed}`);
  // Tracks another track cannot be told from (same artist and title once versions are read) are left out.
  const signature = (track: SourceTrack) => {
    const parsed = parseTitle(track.title);
    return `${words(track.creators[0]?.name ?? '').join(' ')}|${parsed.base.join(' ')}|${parsed.version.join(' ')}`;
  };
  const seen = new Map<string, number>();
  for (const track of tracks) seen.set(signature(track), (seen.get(signature(track)) ?? 0) + 1);
  const pool = random.sample(
    tracks.filter((track) => seen.get(signature(track)) === 1),
    count,
  );
  return pool.map((track) => corrupt(random, track));
}

function corrupt(random: Random, track: SourceTrack): CorruptedQuery {
  const kinds: string[] = [];
  const { base, feat, version } = split(track.title);
  const [main, ...others] = track.creators.map((creator) => creator.name);
  let artist = main ?? '';
  let title = base;
  let versionText = version ? ` (${version})` : '';
  let featText = feat ? ` (feat. ${feat})` : '';
  const wanted = random.int(1, 3);
  const all = ['typo', 'typo', 'drop', 'words', 'accents', 'feat', 'version', 'fields', 'case', 'typo2'] as const;
  const chosen = new Set<(typeof all)[number]>();
  while (chosen.size < wanted) chosen.add(random.pick(all));
  // A kind that cannot apply (no accents to strip) gives way to a typo: every row is changed somehow.
  const kindsToTry: (typeof all)[number][] = [...chosen, 'typo'];
  let swapFields = false;
  for (const kind of kindsToTry) {
    if (kind === 'typo' && kinds.length >= chosen.size) break;
    if (kind === 'typo' || kind === 'typo2' || kind === 'drop') {
      const inTitle = random.chance(0.6);
      const change = (word: string) => (kind === 'drop' ? typo(random, word, 'drop') : typo(random, word));
      const changed = inTitle ? changeWord(random, title, 4, change) : changeWord(random, artist, 4, change);
      if (changed === null) continue;
      if (inTitle) title = changed;
      else artist = changed;
      if (kind === 'typo2') {
        const again = changeWord(random, inTitle ? artist : title, 5, (word) => typo(random, word));
        if (again !== null) {
          if (inTitle) artist = again;
          else title = again;
        }
      }
      kinds.push(kind);
    } else if (kind === 'words') {
      const target = random.chance(0.5) && title.split(' ').length > 1 ? 'title' : 'artist';
      const parts = (target === 'title' ? title : artist).split(' ');
      if (parts.length < 2) continue;
      const rotated = [...parts.slice(1), parts[0] as string].join(' ');
      if (target === 'title') title = rotated;
      else artist = rotated;
      kinds.push('swapped words');
    } else if (kind === 'accents') {
      if (fold(artist + title) === (artist + title).toLowerCase()) continue;
      artist = stripAccents(artist);
      title = stripAccents(title);
      featText = stripAccents(featText);
      kinds.push('accents stripped');
    } else if (kind === 'feat') {
      if (feat) {
        // Dropped, or moved to the artist field.
        featText = '';
        if (random.chance(0.5)) artist = `${artist} ${random.pick(['feat.', 'ft.', 'ft', '&'])} ${feat}`;
        kinds.push('feat. moved or dropped');
      } else if (others.length > 0) {
        if (random.chance(0.5)) artist = `${artist} ${random.pick(['feat.', 'ft.', '&', 'x'])} ${others[0]}`;
        else featText = ` (feat. ${others[0]})`;
        kinds.push('feat. added');
      } else continue;
    } else if (kind === 'version') {
      versionText = version ? restyleVersion(random, version) : random.pick([' (Original Mix)', ' - Original Mix']);
      kinds.push('version restyled');
    } else if (kind === 'fields') {
      swapFields = true;
      kinds.push('artist and title swapped');
    } else if (kind === 'case') {
      artist = random.chance(0.5) ? artist.toLowerCase() : artist.toUpperCase();
      title = title.toLowerCase();
      versionText = versionText.toLowerCase();
      kinds.push('case');
    }
  }
  const fullTitle = `${title}${featText}${versionText}`.trim();
  return swapFields
    ? { artist: fullTitle, title: artist, expected: track.id, kinds }
    : { artist, title: fullTitle, expected: track.id, kinds };
}
