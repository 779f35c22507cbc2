/**
 * Keeping the search index in step (docs/search.md#freshness): the rows the triggers queued in `search_pending` are
 * read back from their tables; what may be found gets its document (words, postings, word counts), what may not (a
 * draft, a deactivated mix, a member without a user name, a typed-by-hand track no visible mix plays, a deleted row)
 * loses it.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { VISIBLE_MIX_SQL } from '../mixes/index.js';
import { activeMemberSql } from '../users/index.js';
import { bodyWords, type DocBody, KIND, memberBody, mixBody, nameKey, trackBody } from './search-text.js';

const json = (value: unknown) => JSON.stringify(value);
/** The channel new words are announced on (payload: the first new word's id). */
export const WORDS_CHANNEL = 'search_words';
/** A PostgreSQL array literal of ids or numbers (bound as one value; a JS array would be spread into a list). */
export const pgArray = (list: readonly (string | number)[]) => `{${list.join(',')}}`;

interface Wanted {
  kind: number;
  refId: string;
  body: DocBody;
  nameKey: string;
}

interface SourceRow {
  id: string;
  title: string;
  genre: string;
  display_name: string;
  user_name: string | null;
  creators: { name: string }[];
  label: { name: string } | null;
}

/**
 * What may be found, by kind: the rows (`where` narrows them further) and the document each becomes. `order` is the
 * order a full build reads them in, oldest first, so the newest documents get the highest numbers.
 */
const SOURCES = [
  {
    kind: KIND.mix,
    sql: (
      where: string,
    ) => `select mix.id, mix.title, mix.genre, u.display_name, u.user_name from mix join app_user u on u.id = mix.owner_id
      where ${VISIBLE_MIX_SQL} ${where}`,
    key: 'mix.id',
    order: 'mix.published_at, mix.id',
    doc: (row: SourceRow): Wanted => ({
      kind: KIND.mix,
      refId: row.id,
      body: mixBody({ title: row.title, genre: row.genre, displayName: row.display_name, userName: row.user_name }),
      nameKey: nameKey(row.title),
    }),
  },
  {
    kind: KIND.member,
    sql: (where: string) =>
      `select id, display_name, user_name from app_user u where user_name is not null and ${activeMemberSql('u')} ${where}`,
    key: 'u.id',
    order: 'u.created_at, u.id',
    doc: (row: SourceRow): Wanted => ({
      kind: KIND.member,
      refId: row.id,
      body: memberBody({ displayName: row.display_name, userName: row.user_name ?? '' }),
      nameKey: nameKey(row.display_name),
    }),
  },
  {
    kind: KIND.track,
    sql: (where: string) => `select t.id, t.title, t.creators, t.label from track t where (not t.is_manual or exists (
         select 1 from mix_track mt join mix on mix.id = mt.mix_id where mt.track_id = t.id and ${VISIBLE_MIX_SQL})) ${where}`,
    key: 't.id',
    order: 't.created_at, t.id',
    doc: (row: SourceRow): Wanted => ({ kind: KIND.track, refId: row.id, body: trackBody(row), nameKey: nameKey(row.title) }),
  },
];

/** The documents the queued rows should have now (missing: the row may not be found). */
async function wantedDocs(em: EntityManager, queued: { kind: number; ref_id: string }[]): Promise<Wanted[]> {
  const wanted: Wanted[] = [];
  for (const source of SOURCES) {
    const ids = queued.filter((row) => row.kind === source.kind).map((row) => row.ref_id);
    if (ids.length === 0) continue;
    const rows = await em.execute<SourceRow[]>(source.sql(`and ${source.key} = any(?::uuid[])`), [pgArray(ids)]);
    for (const row of rows) wanted.push(source.doc(row));
  }
  return wanted;
}

/**
 * Word ids for these words, adding new ones to the vocabulary; new words are announced to every instance's in-memory
 * vocabulary (search-vocabulary.ts) when the transaction commits, naming the first new id.
 */
async function wordIds(em: EntityManager, vocabulary: string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (vocabulary.length === 0) return ids;
  const known = await em.execute<{ id: number; word: string }[]>(
    'select id, word from search_word where word in (select jsonb_array_elements_text(?::jsonb))',
    [json(vocabulary)],
  );
  for (const row of known) ids.set(row.word, row.id);
  const missing = vocabulary.filter((word) => !ids.has(word));
  if (missing.length === 0) return ids;
  const created = await em.execute<{ id: number; word: string }[]>(
    `insert into search_word (word) select w from jsonb_array_elements_text(?::jsonb) as w order by w
     on conflict (word) do nothing returning id, word`,
    [json(missing)],
  );
  for (const { id, word } of created) ids.set(word, id);
  if (created.length > 0) {
    await em.execute(`select pg_notify('${WORDS_CHANNEL}', ?)`, [String(Math.min(...created.map((row) => row.id)))]);
  }
  // Added meanwhile by another instance's transaction.
  const raced = missing.filter((word) => !ids.has(word));
  if (raced.length > 0) {
    const rows = await em.execute<{ id: number; word: string }[]>(
      'select id, word from search_word where word in (select jsonb_array_elements_text(?::jsonb))',
      [json(raced)],
    );
    for (const row of rows) ids.set(row.word, row.id);
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

/** Source rows read per fetch, and documents written per statement, while building the whole index. */
const BUILD_CHUNK = 20_000;

/**
 * Builds the whole index at once, for an empty index (a new installation, or the bench): every row that may be found
 * is read through a cursor, oldest first, its document written in chunks, and then the postings in one sorted insert
 * (an ascending insert into an empty B-tree fills its pages in order) and the word counts. The queue is emptied first
 * (inside the transaction): a row changed meanwhile is queued again by its trigger once this commits. Returns the
 * documents written, or null when the index was not empty (another instance built it).
 */
export async function buildIndex(client: pg.ClientBase): Promise<number | null> {
  const run = async <T extends object>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows;
  await run('begin');
  try {
    const written = await build(run);
    await run(written === null ? 'rollback' : 'commit');
    return written;
  } catch (error) {
    await run('rollback');
    throw error;
  }
}

async function build(run: <T extends object>(text: string, params?: unknown[]) => Promise<T[]>): Promise<number | null> {
  await run("select pg_advisory_xact_lock(hashtext('search_build'))");
  const [any] = await run<{ built: boolean }>('select exists (select 1 from search_doc) as built');
  if (any?.built) return null;
  await run('delete from search_pending');
  await run('delete from search_posting');
  await run("set local work_mem = '256MB'");
  const ids = new Map<string, number>();
  const counts = new Map<number, number>();
  for (const row of await run<{ id: number; word: string }>('select id, word from search_word')) ids.set(row.word, row.id);
  const [top] = await run<{ id: number }>(
    'select greatest(coalesce(max(id), 0), (select last_value from search_word_id_seq)) as id from search_word',
  );
  const firstNew = (top?.id ?? 0) + 1;
  let nextId = firstNew;
  const added: [number, string][] = [];
  let written = 0;
  for (const source of SOURCES) {
    await run(`declare search_build no scroll cursor for ${source.sql(`order by ${source.order}`)}`);
    for (;;) {
      const rows = await run<SourceRow>(`fetch forward ${BUILD_CHUNK} from search_build`);
      const docs = rows.map((row) => {
        const doc = source.doc(row);
        const words = bodyWords(doc.body).map((word) => {
          let id = ids.get(word);
          if (id === undefined) {
            id = nextId++;
            ids.set(word, id);
            added.push([id, word]);
          }
          counts.set(id, (counts.get(id) ?? 0) + 1);
          return id;
        });
        return { kind: doc.kind, ref_id: doc.refId, words: pgArray(words), body: doc.body, name_key: doc.nameKey };
      });
      if (docs.length > 0) {
        await run(
          `insert into search_doc (kind, ref_id, words, body, name_key)
             select u.kind, u.ref_id, u.words::int[], u.body, u.name_key
               from jsonb_to_recordset($1::jsonb) as u(kind smallint, ref_id uuid, words text, body jsonb, name_key text)`,
          [json(docs)],
        );
      }
      written += docs.length;
      if (rows.length < BUILD_CHUNK) break;
    }
    await run('close search_build');
  }
  // Words held before (from documents since removed) get their counts again; new ones come with theirs.
  await run('update search_word set df = 0 where df <> 0');
  const known = [...ids.values()].filter((id) => id < firstNew && counts.has(id)).map((id) => [id, counts.get(id)]);
  for (let start = 0; start < known.length; start += BUILD_CHUNK) {
    await run('update search_word w set df = (d->>1)::int from jsonb_array_elements($1::jsonb) as d where w.id = (d->>0)::int', [
      json(known.slice(start, start + BUILD_CHUNK)),
    ]);
  }
  for (let start = 0; start < added.length; start += BUILD_CHUNK) {
    const chunk = added.slice(start, start + BUILD_CHUNK).map(([id, word]) => [id, word, counts.get(id) ?? 0]);
    await run('insert into search_word (id, word, df) select (w->>0)::int, w->>1, (w->>2)::int from jsonb_array_elements($1::jsonb) as w', [
      json(chunk),
    ]);
  }
  if (added.length > 0) {
    await run("select setval('search_word_id_seq', $1)", [nextId - 1]);
    await run(`select pg_notify('${WORDS_CHANNEL}', $1)`, [String(firstNew)]);
  }
  await run(
    'insert into search_posting (word_id, kind, doc_no) select w, d.kind, d.doc_no from search_doc d cross join unnest(d.words) as w order by 1, 2, 3',
  );
  return written;
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
