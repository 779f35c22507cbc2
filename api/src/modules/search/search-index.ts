/**
 * Keeping the search index in step (docs/search.md#freshness): the rows the triggers queued in `search_pending` are
 * read back from their tables; what may be found gets its document (words, deletion keys of new words, postings, word
 * counts), what may not (a draft, a deactivated mix, a member without a user name, a typed-by-hand track no visible mix
 * plays, a deleted row) loses it.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { VISIBLE_MIX_SQL } from '../mixes/index.js';
import { deletionKeys } from '../tracks/index.js';
import { activeMemberSql } from '../users/index.js';
import { bodyWords, type DocBody, KIND, memberBody, mixBody, nameKey, trackBody } from './search-text.js';

const json = (value: unknown) => JSON.stringify(value);
/** A PostgreSQL array literal of ids or numbers (bound as one value; a JS array would be spread into a list). */
export const pgArray = (list: readonly (string | number)[]) => `{${list.join(',')}}`;

interface Wanted {
  kind: number;
  refId: string;
  body: DocBody;
  nameKey: string;
}

/** The documents the queued rows should have now (missing: the row may not be found). */
async function wantedDocs(em: EntityManager, queued: { kind: number; ref_id: string }[]): Promise<Wanted[]> {
  const ids = (kind: number) => queued.filter((row) => row.kind === kind).map((row) => row.ref_id);
  const wanted: Wanted[] = [];
  const mixIds = ids(KIND.mix);
  if (mixIds.length > 0) {
    const rows = await em.execute<{ id: string; title: string; genre: string; display_name: string; user_name: string | null }[]>(
      `select mix.id, mix.title, mix.genre, u.display_name, u.user_name from mix join app_user u on u.id = mix.owner_id
        where mix.id = any(?::uuid[]) and ${VISIBLE_MIX_SQL}`,
      [pgArray(mixIds)],
    );
    for (const row of rows) {
      const body = mixBody({ title: row.title, genre: row.genre, displayName: row.display_name, userName: row.user_name });
      wanted.push({ kind: KIND.mix, refId: row.id, body, nameKey: nameKey(row.title) });
    }
  }
  const memberIds = ids(KIND.member);
  if (memberIds.length > 0) {
    const rows = await em.execute<{ id: string; display_name: string; user_name: string }[]>(
      `select id, display_name, user_name from app_user u where id = any(?::uuid[]) and user_name is not null and ${activeMemberSql('u')}`,
      [pgArray(memberIds)],
    );
    for (const row of rows) {
      const body = memberBody({ displayName: row.display_name, userName: row.user_name });
      wanted.push({ kind: KIND.member, refId: row.id, body, nameKey: nameKey(row.display_name) });
    }
  }
  const trackIds = ids(KIND.track);
  if (trackIds.length > 0) {
    const rows = await em.execute<{ id: string; title: string; creators: { name: string }[]; label: { name: string } | null }[]>(
      `select t.id, t.title, t.creators, t.label from track t where t.id = any(?::uuid[]) and (not t.is_manual or exists (
         select 1 from mix_track mt join mix on mix.id = mt.mix_id where mt.track_id = t.id and ${VISIBLE_MIX_SQL}))`,
      [pgArray(trackIds)],
    );
    for (const row of rows) wanted.push({ kind: KIND.track, refId: row.id, body: trackBody(row), nameKey: nameKey(row.title) });
  }
  return wanted;
}

/** Word ids for these words, adding new ones to the vocabulary with their deletion keys. */
async function wordIds(em: EntityManager, vocabulary: string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (vocabulary.length === 0) return ids;
  const created = await em.execute<{ id: number; word: string }[]>(
    `insert into search_word (word) select w from jsonb_array_elements_text(?::jsonb) as w order by w
     on conflict (word) do nothing returning id, word`,
    [json(vocabulary)],
  );
  const keys: [string, number][] = [];
  for (const { id, word } of created) {
    ids.set(word, id);
    for (const key of deletionKeys(word)) keys.push([key, id]);
  }
  for (let start = 0; start < keys.length; start += 50_000) {
    await em.execute(
      `insert into search_word_key (key, word_id)
       select k->>0, (k->>1)::int from jsonb_array_elements(?::jsonb) as k on conflict do nothing`,
      [json(keys.slice(start, start + 50_000))],
    );
  }
  const missing = vocabulary.filter((word) => !ids.has(word));
  if (missing.length > 0) {
    const known = await em.execute<{ id: number; word: string }[]>(
      'select id, word from search_word where word in (select jsonb_array_elements_text(?::jsonb))',
      [json(missing)],
    );
    for (const row of known) ids.set(row.word, row.id);
  }
  return ids;
}

/** Brings the documents of queued rows up to date (inside the caller's transaction). */
export async function indexQueued(em: EntityManager, queued: { kind: number; ref_id: string }[]): Promise<void> {
  if (queued.length === 0) return;
  const wanted = await wantedDocs(em, queued);
  const existing = await em.execute<{ doc_no: number; kind: number; ref_id: string; words: number[] }[]>(
    `select d.doc_no, d.kind, d.ref_id, d.words from jsonb_to_recordset(?::jsonb) as q(kind smallint, ref_id uuid)
       join search_doc d on d.kind = q.kind and d.ref_id = q.ref_id`,
    [json(queued)],
  );
  const key = (kind: number, refId: string) => `${kind}:${refId}`;
  const old = new Map(existing.map((row) => [key(row.kind, row.ref_id), row]));
  const ids = await wordIds(em, [...new Set(wanted.flatMap((doc) => bodyWords(doc.body)))]);
  const delta = new Map<number, number>();
  const removed: [number, number, number][] = [];
  const added: { kind: number; ref_id: string; words: number[] }[] = [];
  const wantedKeys = new Set<string>();
  const upserts = wanted.map((doc) => {
    wantedKeys.add(key(doc.kind, doc.refId));
    const next = [...new Set(bodyWords(doc.body).map((word) => ids.get(word) as number))];
    const before = old.get(key(doc.kind, doc.refId));
    const previous = new Set(before?.words ?? []);
    const nextSet = new Set(next);
    for (const id of previous) {
      if (nextSet.has(id)) continue;
      removed.push([id, doc.kind, before?.doc_no as number]);
      delta.set(id, (delta.get(id) ?? 0) - 1);
    }
    const fresh = next.filter((id) => !previous.has(id));
    for (const id of fresh) delta.set(id, (delta.get(id) ?? 0) + 1);
    if (fresh.length > 0) added.push({ kind: doc.kind, ref_id: doc.refId, words: fresh });
    return { kind: doc.kind, ref_id: doc.refId, words: next, body: doc.body, name_key: doc.nameKey };
  });
  const gone = existing.filter((row) => !wantedKeys.has(key(row.kind, row.ref_id)));
  for (const row of gone) {
    for (const id of row.words) {
      removed.push([id, row.kind, row.doc_no]);
      delta.set(id, (delta.get(id) ?? 0) - 1);
    }
  }
  if (removed.length > 0) {
    await em.execute(
      `delete from search_posting p using jsonb_array_elements(?::jsonb) as r
        where p.word_id = (r->>0)::int and p.kind = (r->>1)::smallint and p.doc_no = (r->>2)::int`,
      [json(removed)],
    );
  }
  if (gone.length > 0) await em.execute('delete from search_doc where doc_no = any(?::int[])', [pgArray(gone.map((row) => row.doc_no))]);
  if (upserts.length > 0) {
    await em.execute(
      `insert into search_doc (kind, ref_id, words, body, name_key)
       select u.kind, u.ref_id, array(select jsonb_array_elements_text(u.words)::int), u.body, u.name_key
         from jsonb_to_recordset(?::jsonb) as u(kind smallint, ref_id uuid, words jsonb, body jsonb, name_key text)
       on conflict (kind, ref_id) do update set words = excluded.words, body = excluded.body, name_key = excluded.name_key`,
      [json(upserts)],
    );
  }
  if (added.length > 0) {
    await em.execute(
      `insert into search_posting (word_id, kind, doc_no)
       select w::int, a.kind, d.doc_no from jsonb_to_recordset(?::jsonb) as a(kind smallint, ref_id uuid, words jsonb)
         join search_doc d on d.kind = a.kind and d.ref_id = a.ref_id
         cross join jsonb_array_elements_text(a.words) as w
       on conflict do nothing`,
      [json(added)],
    );
  }
  const changes = [...delta].filter(([, change]) => change !== 0).sort(([a], [b]) => a - b);
  if (changes.length > 0) {
    await em.execute(
      `update search_word w set df = greatest(w.df + (d->>1)::int, 0)
         from jsonb_array_elements(?::jsonb) as d where w.id = (d->>0)::int`,
      [json(changes)],
    );
  }
}

/** Indexes queued rows, `batch` at a time, until none is left; returns how many rows were read. */
export async function indexPending(fork: () => EntityManager, batch = 2000): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await fork().transactional(async (em) => {
      const queued = await em.execute<{ kind: number; ref_id: string }[]>(
        `delete from search_pending where (kind, ref_id) in (
           select kind, ref_id from search_pending order by kind, ref_id limit ? for update skip locked)
         returning kind, ref_id`,
        [batch],
      );
      await indexQueued(em, queued);
      return queued.length;
    });
    total += done;
    if (done < batch) return total;
  }
}
