/**
 * The demo catalogue: about 2,400 invented tracks generated from a seed (the same on every machine, nothing shipped
 * as a file), besides the demo world's 72 reference tracks, so lookup is useful on the first start. It holds the cases
 * that make lookup hard: several versions of one title (original, extended, radio edit, remixes by other artists),
 * artists with accents, "feat." credits, the same title by different artists, and near-identical titles.
 */

import type { CatalogueInput } from '../modules/tracks/catalogue/catalogue.inputs.js';
import { CatalogueService, type EmSource, type WriteSummary } from '../modules/tracks/catalogue/catalogue.service.js';
import type { Creator } from '../modules/tracks/track.entity.js';
import { Random } from '../shared/random.js';
import { ADJECTIVES, ALIAS_A, ALIAS_B, FIRST, LABELS, LAST, NOUNS, VERBS } from './catalogue-words.js';
import { planWorld } from './plan.js';
import { DEMO_SEED, stableUuid } from './seed.js';

/** The `source` of every demo catalogue track (its external id is its number). */
export const DEMO_CATALOGUE_SOURCE = 'mixcrate-demo';
/** Original works the generator writes; each gets one or more versions. */
const WORKS = 1_150;

/** An invented artist name: a person (often with accents), an alias, a duo, or "DJ"/"The" forms. */
function artistName(random: Random): string {
  const roll = random.next();
  if (roll < 0.45) return `${random.pick(FIRST)} ${random.pick(LAST)}`;
  if (roll < 0.75) return `${random.pick(ALIAS_A)} ${random.pick(ALIAS_B)}`;
  if (roll < 0.85) return `${random.pick(LAST)} & ${random.pick(LAST)}`;
  if (roll < 0.93) return `DJ ${random.pick(FIRST)}`;
  return `The ${random.pick(ALIAS_A)} ${random.pick(ALIAS_B)}`;
}

function titleOf(random: Random): string {
  const roll = random.next();
  if (roll < 0.4) return `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`;
  if (roll < 0.55) return random.pick(NOUNS);
  if (roll < 0.67) return `${random.pick(NOUNS)} of ${random.pick(NOUNS)}`;
  if (roll < 0.77) return `${random.pick(VERBS)} Me ${random.pick(['Higher', 'Closer', 'Home', 'Down', 'Now', 'Tonight'])}`;
  if (roll < 0.87) return `The ${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`;
  return `${random.pick(ADJECTIVES)} ${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`;
}

const creator = (name: string): Creator => ({ id: stableUuid(`demo-artist:${name}`), name });

interface Work {
  artists: string[];
  featured: string | null;
  title: string;
  label: string;
  year: number;
}

/** Every demo catalogue track, in a fixed order (external id = its index). Deterministic from `seed`. */
export function demoCatalogue(seed = DEMO_SEED): CatalogueInput[] {
  const random = new Random(`catalogue:${seed}`);
  const artists = [...new Set(Array.from({ length: 520 }, () => artistName(random)))];
  const works: Work[] = [];
  // The demo world's references get more versions too: their artists and titles are the ones the mixes play.
  for (const reference of planWorld().references) {
    const bare = reference.title.replace(/\s*\(.*\)$/, '');
    works.push({ artists: reference.creators.slice(0, 1), featured: null, title: bare, label: reference.label, year: 2024 });
  }
  const titlesSoFar: string[] = [];
  for (let index = 0; index < WORKS; index += 1) {
    // One work in six takes a title another artist already used (the same title by different artists).
    const title = titlesSoFar.length > 20 && random.chance(1 / 6) ? random.pick(titlesSoFar) : titleOf(random);
    titlesSoFar.push(title);
    const main = random.pick(artists);
    works.push({
      artists: random.chance(0.08) ? [main, random.pick(artists)] : [main],
      featured: random.chance(0.2) ? random.pick(artists) : null,
      title,
      label: random.pick(LABELS),
      year: random.int(2012, 2026),
    });
  }
  const tracks: CatalogueInput[] = [];
  const add = (work: Work, suffix: string, fresh: boolean) => {
    const n = tracks.length;
    const month = random.int(1, 12);
    const day = random.int(1, 28);
    const newRelease = fresh && random.chance(0.3);
    const featuredPart = work.featured && random.chance(0.5) ? ` (feat. ${work.featured})` : '';
    const creators = [...work.artists, ...(work.featured && !featuredPart ? [work.featured] : [])].map(creator);
    tracks.push({
      id: stableUuid(`catalogue:${seed}:${n}`),
      source: DEMO_CATALOGUE_SOURCE,
      externalId: String(n),
      title: `${work.title}${featuredPart}${suffix}`,
      creators,
      label: { id: stableUuid(`demo-label:${work.label}`), name: work.label },
      cover: null,
      releaseDate: newRelease ? null : `${work.year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      buy: !newRelease && random.chance(0.85),
      newRelease,
    });
  };
  works.forEach((work, index) => {
    const isReference = index < 72;
    const fresh = work.year >= 2025;
    if (!isReference) add(work, random.chance(0.4) ? ' (Original Mix)' : '', fresh);
    if (random.chance(isReference ? 0.6 : 0.4))
      add(work, random.pick([' (Extended Mix)', ' - Extended Mix', ' (Extended Version)']), fresh);
    if (random.chance(0.12)) add(work, random.pick([' (Radio Edit)', ' - Radio Edit']), fresh);
    if (random.chance(0.07)) add(work, random.pick([' (Dub Mix)', ' (Instrumental)', ' (VIP Mix)', ' (Club Mix)']), fresh);
    const remixes = random.chance(isReference ? 0.7 : 0.35) ? (random.chance(0.35) ? 2 : 1) : 0;
    const remixers = random.sample(
      artists.filter((name) => !work.artists.includes(name)),
      remixes,
    );
    for (const remixer of remixers) {
      add(
        work,
        random.pick([` (${remixer} Remix)`, ` (${remixer} Remix)`, ` - ${remixer} Remix`, ` (${remixer} Edit)`, ` (${remixer} Rework)`]),
        fresh,
      );
    }
  });
  return tracks;
}

/**
 * Loads the demo catalogue (idempotent: tracks are written by external id, so a second call changes nothing) and
 * indexes every catalogue track not yet indexed (the demo world's references included). Quick when already loaded.
 */
export async function loadDemoCatalogue(source: EmSource): Promise<WriteSummary> {
  const service = new CatalogueService(source);
  const tracks = demoCatalogue();
  const em = 'em' in source ? source.em.fork() : source.fork();
  const [row] = await em.execute<{ n: string }[]>('select count(*) as n from track where external_source = ?', [DEMO_CATALOGUE_SOURCE]);
  const summary: WriteSummary = { created: 0, updated: 0, unchanged: 0 };
  if (Number(row?.n ?? 0) !== tracks.length) {
    for (let start = 0; start < tracks.length; start += 1000) {
      const part = await service.write(tracks.slice(start, start + 1000));
      summary.created += part.created;
      summary.updated += part.updated;
      summary.unchanged += part.unchanged;
    }
  } else summary.unchanged = tracks.length;
  const indexed = await service.indexPending();
  if (summary.created + summary.updated + indexed > 0)
    await em.execute('analyze track, catalogue_word, catalogue_word_key, catalogue_posting');
  return summary;
}
