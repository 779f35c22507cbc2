/**
 * Normalising and tokenising track text (pure): what the lookup index stores and what a typed row is compared with.
 * Case, accents, punctuation, "feat." parts and version suffixes ("(Original Mix)", "- Extended Edit") are taken apart
 * here, so the scorer sees words.
 */

/** Longest word kept (longer ones are cut): the index's word column holds 64 characters, keys are cut here too. */
export const MAX_WORD_LENGTH = 32;

const LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŋ: 'n',
};

/** Lower case without accents: "Zoë Lefèvre" -> "zoe lefevre", "Øresund" -> "oresund", "Straße" -> "strasse". */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþıħŧŋ]/g, (letter) => LETTERS[letter] ?? letter);
}

/** Words joining names that carry no meaning of their own ("Rhodes & Rye" = "Rhodes and Rye"). */
const JOINERS = new Set(['and', 'n']);
/** Words introducing featured artists. */
export const FEATURING = new Set(['feat', 'ft', 'featuring', 'ftg', 'feats']);
/** Words that only say "a version": dropped everywhere ("(Original Mix)" is the original). */
export const GENERIC_VERSION = new Set(['mix', 'edit', 'version', 'original', 'cut', 'remaster', 'remastered', 'mixed', 'vers', 'ver']);
/** Words naming a kind of version: a version signature holds them ("extended", "dub", "remix"). */
export const VERSION_KINDS = new Set([
  'remix',
  'extended',
  'radio',
  'club',
  'dub',
  'vip',
  'instrumental',
  'live',
  'acapella',
  'reprise',
  'rework',
  'bootleg',
  'refix',
  'flip',
  'short',
  'long',
  'acoustic',
  'rerub',
  'reedit',
]);
const KIND_ALIASES: Record<string, string> = {
  rmx: 'remix',
  remixed: 'remix',
  rework: 'remix',
  bootleg: 'remix',
  refix: 'remix',
  flip: 'remix',
  rerub: 'remix',
};
/** Any word that marks a bracket or dash part as a version. */
const VERSION_MARKERS = new Set([...GENERIC_VERSION, ...VERSION_KINDS, ...Object.keys(KIND_ALIASES)]);

/** The words of some text: folded, apostrophes joined ("Don't" -> "dont"), split at anything not a letter or digit. */
export function words(text: string): string[] {
  return fold(text)
    .replace(/['’`´‘]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0 && !JOINERS.has(word))
    .map((word) => (word.length > MAX_WORD_LENGTH ? word.slice(0, MAX_WORD_LENGTH) : word));
}

/** A title taken apart: its own words, featured artists' words, and the words of its version. */
export interface ParsedTitle {
  base: string[];
  featured: string[];
  /** The version's words as typed, generic ones ("mix", "original") dropped, aliases folded ("rmx" -> "remix"). */
  version: string[];
}

const canonicalVersionWord = (word: string) => KIND_ALIASES[word] ?? word;

/** The version words of a part, or null when the part names no version. */
function versionWords(part: string[]): string[] | null {
  if (!part.some((word) => VERSION_MARKERS.has(word))) return null;
  return part.filter((word) => !GENERIC_VERSION.has(word)).map(canonicalVersionWord);
}

const featuredOf = (part: string[]): string[] | null => (part.length > 1 && FEATURING.has(part[0] as string) ? part.slice(1) : null);

/**
 * Takes a title apart: bracketed parts and parts after a spaced dash become the version ("(Juno Reyes Remix)",
 * "- Extended Edit") or featured artists ("(feat. Kora Vale)"); an inline "feat. X" is cut off the end; what remains
 * is the title itself. Brackets that are neither stay part of the title ("(I Just) Died").
 */
export function parseTitle(title: string): ParsedTitle {
  const base: string[] = [];
  const featured: string[] = [];
  const version: string[] = [];
  const rest: string[] = [];
  const unbracketed = title.replace(/[([{]([^)\]}]*)[)\]}]?/g, (_, inside: string) => {
    rest.push(inside);
    return ' ';
  });
  const dashParts = unbracketed.split(/\s+[-–—|]+\s+|\s+[-–—]+(?=\S)|(?<=\S)[-–—]+\s+/);
  const mainParts: string[] = [dashParts[0] ?? ''];
  for (const part of dashParts.slice(1)) rest.push(part);
  const classify = (part: string[], isMain: boolean) => {
    const feat = featuredOf(part);
    if (feat) {
      featured.push(...feat);
      return;
    }
    const inlineFeat = part.findIndex((word) => FEATURING.has(word));
    if (inlineFeat > 0 && inlineFeat < part.length - 1) {
      classify(part.slice(0, inlineFeat), isMain);
      const tail = part.slice(inlineFeat + 1);
      // "feat. Kora Vale Extended Mix": the featured names run up to the version words.
      const versionStart = tail.findIndex((word) => VERSION_MARKERS.has(word));
      if (versionStart > 0) {
        featured.push(...tail.slice(0, versionStart));
        version.push(...(versionWords(tail.slice(versionStart)) ?? []));
      } else featured.push(...tail);
      return;
    }
    const asVersion = isMain ? null : versionWords(part);
    if (asVersion) version.push(...asVersion);
    else base.push(...part.filter((word) => !FEATURING.has(word)));
  };
  for (const part of mainParts) classify(words(part), true);
  for (const part of rest) classify(words(part), false);
  return { base, featured, version };
}

/** The words of an artist field: every name, split at "&", ",", "feat.", "x", "vs". */
export function artistWords(artist: string): string[] {
  return words(artist).filter((word) => !FEATURING.has(word) && word !== 'vs' && word !== 'x' && word !== 'pres' && word !== 'presents');
}

/** A track (catalogue or typed) as the scorer sees it. */
export interface TrackText {
  /** The title's own words. */
  title: string[];
  /** The main artist's words (a typed row: everything in its artist field). */
  artist: string[];
  /** Other credited artists (featured, second creators). */
  others: string[];
  /** The version signature: empty for the original. */
  version: string[];
}

/** A catalogue track's text: the first creator is the artist; the others and "feat." names are `others`. */
export function catalogueText(title: string, creators: readonly { name: string }[]): TrackText {
  const parsed = parseTitle(title);
  const [first, ...rest] = creators;
  const artist = first ? artistWords(first.name) : [];
  const others = [...rest.flatMap((creator) => artistWords(creator.name)), ...parsed.featured].filter((word) => !artist.includes(word));
  return { title: parsed.base, artist, others: [...new Set(others)], version: parsed.version };
}

/** A typed row's text (artist and title as the uploader typed them, in whichever field). */
export function typedText(artist: string, title: string): TrackText {
  const parsedTitle = parseTitle(title);
  // An artist field may carry a title's decorations too ("Kora Vale feat. Dani Osei", "Kora Vale (Extended Mix)").
  const parsedArtist = parseTitle(artist);
  return {
    title: parsedTitle.base,
    artist: parsedArtist.base.filter((word) => !FEATURING.has(word) && word !== 'vs' && word !== 'x'),
    others: [...parsedTitle.featured, ...parsedArtist.featured],
    version: [...parsedTitle.version, ...parsedArtist.version],
  };
}

/** The words the lookup index holds for a catalogue track: title, every artist, and the version's names. */
export function indexWords(text: TrackText): string[] {
  return [...new Set([...text.title, ...text.artist, ...text.others, ...text.version.filter((word) => !VERSION_KINDS.has(word))])];
}

/** The words of a typed row used to find candidates (version kinds and generic words find nothing useful). */
export function queryWords(text: TrackText): string[] {
  return [
    ...new Set(
      [...text.title, ...text.artist, ...text.others, ...text.version].filter(
        (word) => !VERSION_KINDS.has(word) && !GENERIC_VERSION.has(word) && !FEATURING.has(word),
      ),
    ),
  ];
}
