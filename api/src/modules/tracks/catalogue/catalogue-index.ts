/**
 * Writing the catalogue: tracks created or updated by external id, and the lookup index that follows them (the
 * vocabulary, each word's deletion keys, the postings, each word's document count).
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Creator, TrackLabel } from '../track.entity.js';
import type { CatalogueInput } from './catalogue.inputs.js';
import { catalogueText, indexWords } from './normalise.js';
import { deletionKeys } from './typos.js';

export interface WriteSummary {
  created: number;
  updated: number;
  unchanged: number;
}

const json = (value: unknown) => JSON.stringify(value);

interface IndexRow {
  id: string;
  search_no: number;
  title: string;
  creators: Creator[];
  search_words: number[] | null;
}

interface ExistingRow extends IndexRow {
  external_source: string;
  external_id: string;
  label: TrackLabel | null;
  cover: string | null;
  release_date: string | null;
  buy: boolean;
  new_release: boolean;
}

const sameTrack = (row: ExistingRow, input: CatalogueInput) =>
  row.title === input.title &&
  json(row.creators) === json(input.creators) &&
  json(row.label) === json(input.label) &&
  row.cover === input.cover &&
  row.release_date === input.releaseDate &&
  row.buy === input.buy &&
  row.new_release === input.newRelease;

/** Writes a batch of catalogue tracks (inside the caller's transaction). */
export async function writeTracks(em: EntityManager, inputs: readonly CatalogueInput[]): Promise<WriteSummary> {
  // The last of several rows for one external id wins.
  const byKey = new Map<string, CatalogueInput>();
  for (const input of inputs) byKey.set(`${input.source}\u0000${input.externalId}`, input);
  const unique = [...byKey.values()];
  const summary: WriteSummary = { created: 0, updated: 0, unchanged: 0 };
  if (unique.length === 0) return summary;
  const existing = await em.execute<ExistingRow[]>(
    `select t.id, t.search_no, t.title, t.creators, t.search_words, t.external_source, t.external_id, t.label, t.cover,
            t.release_date::text as release_date, t.buy, t.new_release
       from jsonb_to_recordset(?::jsonb) as k(source text, "externalId" text)
       join track t on t.external_source = k.source and t.external_id = k."externalId"`,
    [json(unique.map((input) => ({ source: input.source, externalId: input.externalId })))],
  );
  const found = new Map(existing.map((row) => [`${row.external_source}\u0000${row.external_id}`, row]));
  const creates: CatalogueInput[] = [];
  const updates: { id: string; input: CatalogueInput }[] = [];
  const reindex: IndexRow[] = [];
  for (const input of unique) {
    const row = found.get(`${input.source}\u0000${input.externalId}`);
    if (!row) creates.push({ ...input, id: input.id ?? randomUUID() });
    else if (sameTrack(row, input)) {
      summary.unchanged += 1;
      if (row.search_words === null) reindex.push(row);
    } else {
      updates.push({ id: row.id, input });
      reindex.push({ ...row, title: input.title, creators: input.creators });
    }
  }
  const record = (input: CatalogueInput, id: string) => ({
    id,
    title: input.title,
    creators: input.creators,
    label: input.label,
    cover: input.cover,
    release_date: input.releaseDate,
    buy: input.buy,
    new_release: input.newRelease,
    external_source: input.source,
    external_id: input.externalId,
  });
  const RECORD = `r(id uuid, title text, creators jsonb, label jsonb, cover text, release_date date, buy boolean, new_release boolean,
                    external_source text, external_id text)`;
  if (creates.length > 0) {
    const inserted = await em.execute<{ id: string; search_no: number }[]>(
      `insert into track (id, title, creators, label, cover, release_date, buy, new_release, external_source, external_id, is_manual, created_at)
       select r.id, r.title, r.creators, nullif(r.label, 'null'::jsonb), r.cover, r.release_date, r.buy, r.new_release,
              r.external_source, r.external_id, false, now()
         from jsonb_to_recordset(?::jsonb) as ${RECORD}
       returning id, search_no`,
      [json(creates.map((input) => record(input, input.id as string)))],
    );
    const numbers = new Map(inserted.map((row) => [row.id, row.search_no]));
    for (const input of creates) {
      reindex.push({
        id: input.id as string,
        search_no: numbers.get(input.id as string) as number,
        title: input.title,
        creators: input.creators,
        search_words: null,
      });
    }
    summary.created += creates.length;
  }
  if (updates.length > 0) {
    await em.execute(
      `update track t set title = r.title, creators = r.creators, label = nullif(r.label, 'null'::jsonb), cover = r.cover,
              release_date = r.release_date, buy = r.buy, new_release = r.new_release
         from jsonb_to_recordset(?::jsonb) as ${RECORD}
        where t.id = r.id`,
      [json(updates.map((update) => record(update.input, update.id)))],
    );
    summary.updated += updates.length;
  }
  await indexTracks(em, reindex);
  return summary;
}

/**
 * (Re)indexes tracks: their words join the vocabulary (new words with their deletion keys), their postings and the
 * words' counts follow the change from the old words (`search_words`) to the new.
 */
export async function indexTracks(em: EntityManager, rows: readonly IndexRow[]): Promise<void> {
  if (rows.length === 0) return;
  const wordsOf = rows.map((row) => indexWords(catalogueText(row.title, row.creators)));
  const vocabulary = [...new Set(wordsOf.flat())];
  const created = vocabulary.length
    ? await em.execute<{ id: number; word: string }[]>(
        `insert into catalogue_word (word) select w from jsonb_array_elements_text(?::jsonb) as w order by w
         on conflict (word) do nothing returning id, word`,
        [json(vocabulary)],
      )
    : [];
  if (created.length > 0) {
    const keys: [string, number][] = [];
    for (const { id, word } of created) for (const key of deletionKeys(word)) keys.push([key, id]);
    for (let start = 0; start < keys.length; start += 50_000) {
      await em.execute(
        `insert into catalogue_word_key (key, word_id)
         select k->>0, (k->>1)::int from jsonb_array_elements(?::jsonb) as k on conflict do nothing`,
        [json(keys.slice(start, start + 50_000))],
      );
    }
  }
  const ids = new Map(created.map((row) => [row.word, row.id]));
  const missing = vocabulary.filter((word) => !ids.has(word));
  if (missing.length > 0) {
    const known = await em.execute<{ id: number; word: string }[]>(
      'select id, word from catalogue_word where word in (select jsonb_array_elements_text(?::jsonb))',
      [json(missing)],
    );
    for (const row of known) ids.set(row.word, row.id);
  }
  const removed: [number, number][] = [];
  const added: [number, number][] = [];
  const delta = new Map<number, number>();
  const updates: { id: string; words: number[] }[] = [];
  rows.forEach((row, index) => {
    const next = [...new Set((wordsOf[index] ?? []).map((word) => ids.get(word) as number))];
    const previous = new Set(row.search_words ?? []);
    const nextSet = new Set(next);
    for (const id of previous) {
      if (nextSet.has(id)) continue;
      removed.push([id, row.search_no]);
      delta.set(id, (delta.get(id) ?? 0) - 1);
    }
    for (const id of next) {
      if (previous.has(id)) continue;
      added.push([id, row.search_no]);
      delta.set(id, (delta.get(id) ?? 0) + 1);
    }
    updates.push({ id: row.id, words: next });
  });
  if (removed.length > 0) {
    await em.execute(
      `delete from catalogue_posting p using jsonb_array_elements(?::jsonb) as r
        where p.word_id = (r->>0)::int and p.track_no = (r->>1)::int`,
      [json(removed)],
    );
  }
  if (added.length > 0) {
    await em.execute(
      `insert into catalogue_posting (word_id, track_no)
       select (r->>0)::int, (r->>1)::int from jsonb_array_elements(?::jsonb) as r on conflict do nothing`,
      [json(added)],
    );
  }
  const changes = [...delta].filter(([, change]) => change !== 0).sort(([a], [b]) => a - b);
  if (changes.length > 0) {
    await em.execute(
      `update catalogue_word w set df = greatest(w.df + (d->>1)::int, 0)
         from jsonb_array_elements(?::jsonb) as d where w.id = (d->>0)::int`,
      [json(changes)],
    );
  }
  await em.execute(
    `update track t set search_words = array(select jsonb_array_elements_text(u.words)::int)
       from jsonb_to_recordset(?::jsonb) as u(id uuid, words jsonb) where t.id = u.id`,
    [json(updates)],
  );
}

/** Indexes tracks written by others (the demo world's references, older rows): up to `batch` at a time; returns how many. */
export async function indexPending(fork: () => EntityManager, batch = 2000): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await fork().transactional(async (em) => {
      const rows = await em.execute<IndexRow[]>(
        `select id, search_no, title, creators, search_words from track
          where search_words is null and not is_manual order by search_no limit ? for update skip locked`,
        [batch],
      );
      await indexTracks(em, rows);
      return rows.length;
    });
    total += done;
    if (done < batch) return total;
  }
}

/** Rebuilds the whole lookup index from the tracks (after the normaliser changed). */
export async function reindex(fork: () => EntityManager): Promise<number> {
  await fork().transactional(async (em) => {
    await em.execute('truncate catalogue_posting, catalogue_word_key, catalogue_word');
    await em.execute('update track set search_words = null where search_words is not null');
  });
  return indexPending(fork);
}
