/**
 * The catalogue against real PostgreSQL: the demo catalogue loads once (a second load changes nothing), lookup
 * answers in row order with the REST track fields in one round trip, reading few index pages per row (counted by
 * EXPLAIN (ANALYZE, BUFFERS): pages read, unlike time, do not depend on the machine), refuses bad rows with a 400 (never a 500),
 * keeps manual tracks out of everyone's results, and popularity counts chosen and saved tracks.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrate, type Orm, openOrm } from '../src/db/orm.js';
import { DEMO_CATALOGUE_SOURCE, demoCatalogue, loadDemoCatalogue } from '../src/demo-world/demo-catalogue.js';
import { planWorld } from '../src/demo-world/plan.js';
import { MISSING_FIELDS } from '../src/modules/tracks/catalogue/catalogue.inputs.js';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { candidateStatement } from '../src/modules/tracks/catalogue/catalogue-lookup.js';
import { typedText } from '../src/modules/tracks/catalogue/normalise.js';
import { InvalidInputError } from '../src/shared/errors.js';
import { createTestDatabase, dropTestDatabase } from './support/app.js';
import { corruptQueries } from './support/query-corruptions.js';

let url: string;
let orm: Orm;
const queries: string[] = [];
let service: CatalogueService;

beforeAll(async () => {
  url = await createTestDatabase();
  orm = await openOrm(url, { debug: (entry: { orm?: unknown }) => queries.push(String(entry.orm)) } as never, true);
  await migrate(orm);
  service = new CatalogueService(orm);
}, 120_000);
afterAll(async () => {
  await orm.close();
  await dropTestDatabase(url);
});

const execute = <T>(sql: string, params: unknown[] = []) => orm.em.fork().execute<T[]>(sql, params);

describe('demo catalogue', () => {
  test('is generated, the same every time, with the hard cases', () => {
    const tracks = demoCatalogue();
    expect(tracks.length).toBeGreaterThanOrEqual(2000);
    expect(demoCatalogue().map((track) => track.title)).toEqual(tracks.map((track) => track.title));
    const titles = tracks.map((track) => track.title);
    expect(titles.some((title) => /\(Extended Mix\)/.test(title))).toBe(true);
    expect(titles.some((title) => /Remix\)?$/.test(title))).toBe(true);
    expect(titles.some((title) => /\(feat\. /.test(title))).toBe(true);
    expect(tracks.some((track) => /[À-ž]/.test(track.creators.map((creator) => creator.name).join(' ')))).toBe(true);
  });

  test('loads once; a second load changes nothing; the demo world references are indexed too', async () => {
    const references = planWorld().references;
    await execute(
      `insert into track (id, title, creators, label, buy, new_release, is_manual, created_at)
       select r.id, r.title, r.creators, r.label, true, false, false, now()
         from jsonb_to_recordset(?::jsonb) as r(id uuid, title text, creators jsonb, label jsonb)`,
      [
        JSON.stringify(
          references.map((reference) => ({
            id: reference.trackId,
            title: reference.title,
            creators: reference.creators.map((name) => ({ id: null, name })),
            label: { id: null, name: reference.label },
          })),
        ),
      ],
    );
    const first = await loadDemoCatalogue(orm);
    expect(first.created).toBe(demoCatalogue().length);
    const second = await loadDemoCatalogue(orm);
    expect(second).toEqual({ created: 0, updated: 0, unchanged: demoCatalogue().length });
    const [counts] = await execute<{ demo: string; pending: string; postings: string }>(
      `select (select count(*) from track where external_source = ?) as demo,
              (select count(*) from track where search_words is null and not is_manual) as pending,
              (select count(*) from catalogue_posting) as postings`,
      [DEMO_CATALOGUE_SOURCE],
    );
    expect(Number(counts?.demo)).toBe(demoCatalogue().length);
    expect(Number(counts?.pending)).toBe(0);
    // Writing the same tracks again through the service: all unchanged, nothing duplicated.
    expect(await service.write(demoCatalogue().slice(0, 100))).toEqual({ created: 0, updated: 0, unchanged: 100 });
    const reference = references[0];
    if (!reference) throw new Error('no references');
    const [answer] = await service.lookup([{ artist: reference.creators[0], title: reference.title }]);
    expect(answer?.[0]?.id).toBe(reference.trackId);
  });
});

describe('lookup', () => {
  test('answers each row in order with up to 5 candidates and the REST track fields, in one round trip', async () => {
    const tracks = demoCatalogue().slice(200, 230);
    queries.length = 0;
    const answers = await service.lookup(tracks.map((track) => ({ artist: track.creators[0]?.name, title: track.title })));
    expect(queries.filter((query) => /\[query\]/.test(query))).toHaveLength(1);
    expect(answers).toHaveLength(30);
    answers.forEach((candidates, index) => {
      expect(candidates.length).toBeGreaterThan(0);
      expect(candidates.length).toBeLessThanOrEqual(5);
      expect(candidates[0]?.id).toBe(tracks[index]?.id);
    });
    const track = answers[0]?.[0];
    expect(Object.keys(track ?? {}).sort()).toEqual(
      ['buy', 'cover', 'creators', 'id', 'isManual', 'label', 'newRelease', 'popularity', 'releaseDate', 'title'].sort(),
    );
    expect(track?.creators[0]).toEqual({ id: expect.any(String), name: tracks[0]?.creators[0]?.name });
    expect(track?.label).toEqual({ id: expect.any(String), name: expect.any(String) });
  });

  test('a 30-row lookup reads few pages per row: typed words found as typed skip their deletion keys, only leading tracks are read', async () => {
    const tracks = demoCatalogue().map((track) => ({ id: track.id ?? '', title: track.title, creators: track.creators }));
    const rows = corruptQueries(tracks, 30, 31);
    const statement = candidateStatement(rows.map((row) => typedText(row.artist, row.title)));
    if (!statement) throw new Error('no statement');
    const [explained] = await execute<{ 'QUERY PLAN': { Plan: Record<string, number> }[] }>(
      `explain (analyze, buffers, format json) ${statement.sql}`,
      statement.params,
    );
    const plan = explained?.['QUERY PLAN'][0]?.Plan ?? {};
    const buffers = (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
    // 372 a row when every typed word's deletion keys were probed and 30 tracks a row read twice; about 150 now.
    expect(buffers / rows.length).toBeLessThan(250);
  });

  test('an empty list means no options found', async () => {
    const [answer] = await service.lookup([{ artist: 'Qwxz Vbnm', title: 'Zzyzx Plquv' }]);
    expect(answer).toEqual([]);
  });

  test('a row missing artist or title is Missing: Empty fields', async () => {
    for (const rows of [[{ artist: 'Kora Vale', title: '  ' }], [{ title: 'Golden Tide' }], [{}], [null], []]) {
      await expect(service.lookup(rows)).rejects.toThrow(new InvalidInputError(MISSING_FIELDS));
    }
    await expect(service.lookup('nope')).rejects.toBeInstanceOf(InvalidInputError);
  });

  test('hostile text is a 400 with a clear message, never a 500', async () => {
    const cases: [unknown, RegExp][] = [
      [[{ artist: 'Kora\u0000Vale', title: 'Golden Tide' }], /Row 1: artist contains a NUL character/],
      [[{ artist: 'Kora Vale', title: 'Golden \uD800Tide' }], /Row 1: title contains an unpaired surrogate/],
      [[{ artist: 'Kora Vale', title: 'x'.repeat(10_000) }], /Row 1: title must be at most 300 characters/],
      [Array.from({ length: 31 }, () => ({ artist: 'a', title: 'b' })), /at most 30 rows/],
    ];
    for (const [rows, message] of cases) {
      const error = await service.lookup(rows).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as Error).message).toMatch(message);
    }
    // Paired surrogates (emoji) and many words are fine.
    const answers = await service.lookup([
      { artist: 'Kora Vale 🎧', title: Array.from({ length: 60 }, (_, index) => `w${index}`).join(' ') },
    ]);
    expect(answers).toHaveLength(1);
  });

  test('manual tracks never answer a lookup', async () => {
    await execute(
      `insert into track (id, title, creators, is_manual, created_at)
       values (gen_random_uuid(), 'Unheardof Singularity', '[{"id": null, "name": "Typed Byhand"}]', true, now())`,
    );
    await service.indexPending();
    const [answer] = await service.lookup([{ artist: 'Typed Byhand', title: 'Unheardof Singularity' }]);
    expect(answer).toEqual([]);
  });

  test('popularity counts tracks chosen for tracklists and saved, and breaks near ties', async () => {
    const twin = demoCatalogue()[300];
    if (!twin?.id) throw new Error('no track');
    const [user] = await execute<{ id: string }>(
      `insert into app_user (id, email, password_hash, created_at, updated_at)
       values (gen_random_uuid(), 'pop@example.com', 'x', now(), now()) returning id`,
    );
    await execute('insert into saved_track (user_id, track_id, saved_at) values (?, ?, now())', [user?.id, twin.id]);
    const [row] = await execute<{ popularity: number }>('select popularity from track where id = ?', [twin.id]);
    expect(row?.popularity).toBe(1);
    await execute('delete from saved_track where user_id = ?', [user?.id]);
    await service.refreshPopularity();
    const [after] = await execute<{ popularity: number }>('select popularity from track where id = ?', [twin.id]);
    expect(after?.popularity).toBe(0);
  });
});
