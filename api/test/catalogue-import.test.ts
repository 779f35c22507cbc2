/**
 * Catalogue import from JSON lines and CSV: streamed, by external id (a second import updates, never duplicates),
 * bad rows refused one by one with their line and reason while the rest land.
 */
import { Readable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, type Orm, openOrm } from '../src/db/orm.js';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { importCatalogue } from '../src/modules/tracks/catalogue/import.js';
import { createTestDatabase, dropTestDatabase } from './support/app.js';

let url: string;
let orm: Orm;
let service: CatalogueService;
beforeAll(async () => {
  url = await createTestDatabase();
  orm = await openOrm(url, pino({ level: 'silent' }));
  await migrate(orm);
  service = new CatalogueService(orm);
}, 120_000);
afterAll(async () => {
  await orm.close();
  await dropTestDatabase(url);
});

/** A stream that hands its text over in small pieces, splitting records and characters across chunks. */
const streamOf = (text: string) =>
  Readable.from(
    Array.from({ length: Math.ceil(Buffer.byteLength(text) / 7) }, (_, index) => Buffer.from(text).subarray(index * 7, index * 7 + 7)),
  );

const CSV = [
  'source,external_id,title,artists,artist_ids,label,label_id,cover,release_date,buy,new_release',
  'beatport,1001,Golden Tide (Original Mix),Rhodes & Rye; Ama Boateng,a1;a2,Lunar Tapes,l1,,2024-03-01,true,false',
  'beatport,1002,"Neon Harbour, Part 2 (Extended Mix)",Zoë Lefèvre,,"Quiet Room Records",,cover.jpg,2023-11-20,1,0',
  'beatport,1003,"Say ""Hello"" (Dub Mix)","Kora Vale",,,,,,yes,no',
  'beatport,1004,No Artist,,,,,,,,',
  'beatport,1005,Bad Date,Someone,,,,,2024-02-30,,',
  'beatport,1006,Bad Flag,Someone,,,,,,maybe,',
  'beatport,1007,Too,Few,Fields',
  'beatport,1008,"Multi',
  'line title",Moss,,,,,,,',
].join('\r\n');

test('CSV: quoted fields, accents, refused rows with reasons; a second import changes nothing', async () => {
  const summary = await importCatalogue(service, streamOf(CSV), 'csv', { batchSize: 2 });
  expect(summary).toMatchObject({ rows: 8, created: 4, updated: 0, unchanged: 0, refused: 4 });
  expect(summary.refusedRows).toEqual([
    { line: 5, reason: 'artists is missing' },
    { line: 6, reason: 'release_date must be a date as YYYY-MM-DD' },
    { line: 7, reason: 'buy must be true or false' },
    { line: 8, reason: 'has 5 fields, the header has 11' },
  ]);
  const rows = await orm.em
    .fork()
    .execute<{ title: string; creators: unknown; label: unknown; release_date: string | null; buy: boolean; cover: string | null }[]>(
      "select title, creators, label, release_date::text, buy, cover from track where external_source = 'beatport' order by external_id",
    );
  expect(rows.map((row) => row.title)).toEqual([
    'Golden Tide (Original Mix)',
    'Neon Harbour, Part 2 (Extended Mix)',
    'Say "Hello" (Dub Mix)',
    'Multi line title',
  ]);
  expect(rows[0]).toMatchObject({
    creators: [
      { id: 'a1', name: 'Rhodes & Rye' },
      { id: 'a2', name: 'Ama Boateng' },
    ],
    label: { id: 'l1', name: 'Lunar Tapes' },
    release_date: '2024-03-01',
    buy: true,
  });
  expect(rows[1]).toMatchObject({ creators: [{ id: null, name: 'Zoë Lefèvre' }], cover: 'cover.jpg' });
  const again = await importCatalogue(service, streamOf(CSV), 'csv');
  expect(again).toMatchObject({ rows: 8, created: 0, updated: 0, unchanged: 4, refused: 4 });
  const [answer] = await service.lookup([{ artist: 'zoe lefevre', title: 'neon harbor part 2' }]);
  expect(answer?.[0]?.title).toBe('Neon Harbour, Part 2 (Extended Mix)');
});

test('JSON lines: updates by external id, hostile rows refused, the rest land', async () => {
  const lines = [
    {
      source: 'shop',
      external_id: 'x1',
      title: 'Velvet Orbit',
      creators: [{ id: 'k', name: 'Kora Vale' }],
      label: { id: 'l', name: 'Orbit Works' },
    },
    { source: 'shop', external_id: 'x2', title: 'Quiet Signal', artists: 'Dani Osei', new_release: true },
    { source: 'shop', external_id: 'x3', title: 'Nul\u0000Title', artists: 'A' },
    { source: 'shop', external_id: 'x4', title: 'Lone \uD800 surrogate', artists: 'A' },
    { source: 'shop', external_id: 'x5', title: 'y'.repeat(10_000), artists: 'A' },
    { source: 'shop', title: 'No id', artists: 'A' },
    { source: 'shop', external_id: 'x1', title: 'Velvet Orbit (Remastered)', creators: [{ id: 'k', name: 'Kora Vale' }] },
  ];
  const text = `${lines.map((line) => JSON.stringify(line)).join('\n')}\nnot json\n\n[1,2]\n`;
  const summary = await importCatalogue(service, streamOf(text), 'jsonl');
  expect(summary).toMatchObject({ rows: 9, created: 2, updated: 1, refused: 6 });
  expect(summary.refusedRows.map((row) => row.line)).toEqual([3, 4, 5, 6, 8, 10]);
  expect(summary.refusedRows[0]?.reason).toBe('title contains a NUL character');
  expect(summary.refusedRows[1]?.reason).toBe('title contains an unpaired surrogate (not valid Unicode)');
  expect(summary.refusedRows[2]?.reason).toBe('title is longer than 300 characters');
  expect(summary.refusedRows[4]?.reason).toBe('not valid JSON');
  const rows = await orm.em
    .fork()
    .execute<{ external_id: string; title: string }[]>("select external_id, title from track where external_source = 'shop' order by 1");
  expect(rows).toEqual([
    { external_id: 'x1', title: 'Velvet Orbit (Remastered)' },
    { external_id: 'x2', title: 'Quiet Signal' },
  ]);
  // The update re-indexed the track: its new words find it, and nothing is left pending.
  const [answer] = await service.lookup([{ artist: 'Kora Vale', title: 'Velvet Orbit' }]);
  expect(answer?.[0]?.title).toBe('Velvet Orbit (Remastered)');
});
