/**
 * Recognition wired to the catalogue: references fingerprinted into PostgreSQL (through the CLI, MP3 and WAV files,
 * named by a catalogue external id or not), the index built from the stored rows, and a generated mix identified
 * through the service and through the CLI's JSON lines.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, type Orm, openOrm } from '../src/db/orm.js';
import { encodeWav } from '../src/modules/recognition/audio.js';
import { encodeMp3 } from '../src/modules/recognition/recognition.js';
import { RecognitionService } from '../src/modules/recognition/recognition.service.js';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { createTestDatabase, dropTestDatabase } from './support/app.js';
import { MIX, SET, TRUTH } from './support/recognition.js';
import { referenceAudio, renderMix, TEST_SAMPLE_RATE } from './support/recognition-test-set/generate.js';

const run = promisify(execFile);

let url: string;
let orm: Orm;
let dir: string;
let mixFile: string;
const externalIdOf = (track: number) => (track === 0 ? 'BP-1000' : `ref ${track}`);

const cli = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/recognition.ts', ...args], {
    env: { ...process.env, DATABASE_URL: url, DATA_DIR: dir, LOG_LEVEL: 'warn', NODE_ENV: 'test' },
    maxBuffer: 1 << 24,
  });

beforeAll(async () => {
  url = await createTestDatabase();
  orm = await openOrm(url, pino({ level: 'silent' }));
  await migrate(orm);
  dir = await mkdtemp(join(tmpdir(), 'mixcrate-recognition-'));
  await mkdir(join(dir, 'references', 'more'), { recursive: true });
  // Track 0 is in the catalogue already (its file is named by its external id); the others become tracks of their own.
  await new CatalogueService(orm).write([
    {
      source: 'beatport',
      externalId: 'BP-1000',
      title: 'Golden Tide (Original Mix)',
      creators: [{ id: null, name: 'Rhodes & Rye' }],
      label: null,
      cover: null,
      releaseDate: null,
      buy: false,
      newRelease: false,
    },
  ]);
  for (const reference of SET.references.filter((r) => r.known)) {
    const audio = referenceAudio(reference);
    const name = externalIdOf(reference.track);
    if (reference.track === 3) await writeFile(join(dir, 'references', 'more', `${name}.wav`), encodeWav(audio, TEST_SAMPLE_RATE));
    else await writeFile(join(dir, 'references', `${name}.mp3`), await encodeMp3(audio, TEST_SAMPLE_RATE, 128));
  }
  await writeFile(join(dir, 'references', 'notes.txt'), 'not audio');
  mixFile = join(dir, 'mix.mp3');
  await writeFile(mixFile, await encodeMp3(renderMix(SET, MIX), TEST_SAMPLE_RATE, 128));
}, 300_000);

afterAll(async () => {
  await orm?.close();
  if (url) await dropTestDatabase(url);
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the CLI indexes a folder of MP3 and WAV files, attaching to catalogue tracks by external id', async () => {
  const { stdout } = await cli(['index', join(dir, 'references')]);
  expect(stdout).toContain('4 of 4 files indexed; 4 tracks in the index');
  const rows = await orm.em.fork().execute<{ external_source: string; external_id: string; title: string; entries: string }[]>(
    `select t.external_source, t.external_id, t.title, (select count(*) from recognition_fingerprint f where f.reference_no = r.reference_no) as entries
         from recognition_reference r join track t on t.id = r.track_id order by t.external_id`,
  );
  expect(rows.map((row) => [row.external_source, row.external_id, row.title])).toEqual([
    ['beatport', 'BP-1000', 'Golden Tide (Original Mix)'],
    ['file', 'ref 1', 'ref 1'],
    ['file', 'ref 2', 'ref 2'],
    ['file', 'ref 3', 'ref 3'],
  ]);
  for (const row of rows) expect(Number(row.entries)).toBeGreaterThan(500);
  // Created tracks are in the lookup index like any catalogue track.
  const [pending] = await orm.em.fork().execute<{ count: string }[]>('select count(*) as count from track where search_words is null');
  expect(Number(pending?.count)).toBe(0);
  // Indexing again replaces, never duplicates.
  const again = await cli(['index', join(dir, 'references', 'ref 1.mp3')]);
  expect(again.stdout).toContain('1 of 1 files indexed; 4 tracks in the index');
}, 300_000);

test('a mix is identified through the service and through the CLI, with its plays and times', async () => {
  expect(TRUTH.length).toBeGreaterThanOrEqual(2);
  const service = new RecognitionService(orm);
  const fractions: number[] = [];
  const { readFile } = await import('node:fs/promises');
  const bytes = await readFile(mixFile);
  const detections = await service.identify([bytes.subarray(0, 100_000), bytes.subarray(100_000)], {
    durationSeconds: MIX.durationSeconds,
    onProgress: (progress) => fractions.push(progress.fraction ?? -1),
  });
  expect(detections.map((d) => d.externalId)).toEqual(TRUTH.map((play) => externalIdOf(play.track)));
  detections.forEach((detection, i) => {
    const play = TRUTH[i] as (typeof TRUTH)[number];
    expect(Math.abs(detection.start - play.start)).toBeLessThan(15);
    expect(detection.end).toBeGreaterThan(detection.start);
    expect(detection.confidence).toBeGreaterThan(0);
  });
  expect(detections[0]?.title).toBe(detections[0]?.externalId === 'BP-1000' ? 'Golden Tide (Original Mix)' : detections[0]?.externalId);
  expect(fractions.length).toBeGreaterThan(5);
  expect(fractions.at(-1)).toBeGreaterThan(0.9);
  // The index is cached until the references change.
  expect(await service.loadIndex()).toBe(await service.loadIndex());

  const { stdout } = await cli(['identify', mixFile, '--json']);
  const lines = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(lines).toEqual(
    detections.map((d) => ({
      externalId: d.externalId,
      trackId: d.trackId,
      title: d.title,
      start: d.start,
      end: d.end,
      confidence: d.confidence,
      speed: d.speed,
      pitchShift: d.pitchShift,
    })),
  );
  // Each play is reported at the speed and pitch it was mixed at (this mix changes neither).
  for (const detection of detections) {
    expect(Math.abs(detection.speed - 1)).toBeLessThan(0.01);
    expect(Math.abs(detection.pitchShift)).toBeLessThan(0.3);
  }
  const readable = await cli(['identify', mixFile]);
  expect(readable.stdout.trim().split('\n')).toHaveLength(detections.length);
}, 300_000);
