/**
 * `npm run recognition -- index PATH...` fingerprints MP3 and WAV files (folders are walked) into the recognition
 * index of the database the server uses (DATABASE_URL, or the embedded one under DATA_DIR; stop the server first when
 * it runs on the embedded one). A file whose name (or ID3 title) is a catalogue track's external id attaches to that
 * track; any other becomes a catalogue track of its own (source `file`, its file name as external id, titled from its
 * tags or its name). Indexing a file again replaces its fingerprints.
 *
 * `npm run recognition -- identify FILE [--json]` prints the catalogue tracks playing in a mix, in time order: one
 * JSON object per line with --json (`externalId, trackId, title, start, end, confidence, speed, pitchShift`), readable lines otherwise.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { parseFile } from 'music-metadata';
import pino from 'pino';
import { ConfigError, loadConfig } from '../src/config.js';
import type { Orm } from '../src/db/orm.js';
import { migrate, openOrm } from '../src/db/orm.js';
import { RecognitionService } from '../src/modules/recognition/recognition.service.js';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { prepareDatabase } from '../src/server.js';

const usage = 'usage: npm run recognition -- index PATH... | identify FILE [--json]';
const AUDIO = new Set(['.mp3', '.wav']);
const FILE_SOURCE = 'file';

async function audioFiles(path: string): Promise<string[]> {
  const info = await stat(path);
  if (!info.isDirectory()) return [path];
  const found: string[] = [];
  for (const entry of (await readdir(path, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) found.push(...(await audioFiles(child)));
    else if (AUDIO.has(extname(entry.name).toLowerCase())) found.push(child);
  }
  return found;
}

async function tagsOf(path: string): Promise<{ title: string | null; artist: string | null }> {
  try {
    const { common } = await parseFile(path, { skipCovers: true, duration: false });
    return { title: common.title?.trim() || null, artist: common.artist?.trim() || null };
  } catch {
    return { title: null, artist: null };
  }
}

/** The catalogue track a file is of: named by its file name or title tag, or created from the file. */
async function trackFor(orm: Orm, path: string): Promise<{ id: string; title: string; created: boolean }> {
  const stem = basename(path, extname(path)).trim().slice(0, 200);
  const tags = await tagsOf(path);
  const leading = stem.split(/[\s_]+/)[0] ?? stem;
  const candidates = [...new Set([stem, tags.title, leading].filter((value): value is string => !!value))];
  const rows = await orm.em
    .fork()
    .execute<{ id: string; title: string; external_id: string }[]>(
      'select id, title, external_id from track where external_id in (?) and not is_manual order by external_source',
      [candidates],
    );
  for (const candidate of candidates) {
    const row = rows.find((r) => r.external_id === candidate);
    if (row) return { id: row.id, title: row.title, created: false };
  }
  // Without tags, a name like "Artist - Title" gives both (so the upload's lookup finds the track by artist and title).
  const named = /^(.+?)\s+-\s+(.+)$/.exec(stem.replace(/_+/g, ' '));
  const title = (tags.title ?? named?.[2] ?? stem.replace(/_+/g, ' ')).slice(0, 300) || stem;
  const artist = tags.artist ?? (tags.title ? null : (named?.[1] ?? null));
  await new CatalogueService(orm).write([
    {
      source: FILE_SOURCE,
      externalId: stem,
      title,
      creators: artist ? [{ id: null, name: artist.slice(0, 200) }] : [],
      label: null,
      cover: null,
      releaseDate: null,
      buy: false,
      newRelease: false,
    },
  ]);
  const [row] = await orm.em
    .fork()
    .execute<{ id: string }[]>('select id from track where external_source = ? and external_id = ?', [FILE_SOURCE, stem]);
  if (!row) throw new Error(`could not create a track for ${path}`);
  return { id: row.id, title, created: true };
}

const clock = (seconds: number) => {
  const s = Math.round(seconds);
  return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

async function index(orm: Orm, paths: string[]): Promise<number> {
  if (paths.length === 0) throw new Error(usage);
  const service = new RecognitionService(orm);
  let failed = 0;
  const files: string[] = [];
  for (const path of paths) files.push(...(await audioFiles(path)));
  for (const file of files) {
    try {
      const track = await trackFor(orm, file);
      const started = performance.now();
      const summary = await service.indexReference(track.id, createReadStream(file));
      process.stdout.write(
        `${file}: ${track.created ? 'new track' : 'track'} ${track.id} "${track.title}", ${summary.seconds.toFixed(1)} s, ${summary.entries.toLocaleString('en')} fingerprints in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
      );
    } catch (error) {
      failed += 1;
      process.stdout.write(`${file}: failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  process.stdout.write(
    `${files.length - failed} of ${files.length} files indexed; ${await service.referenceCount()} tracks in the index\n`,
  );
  return failed > 0 ? 1 : 0;
}

async function identify(orm: Orm, file: string | undefined, json: boolean): Promise<number> {
  if (!file) throw new Error(usage);
  const service = new RecognitionService(orm);
  const durationSeconds = (await parseFile(file, { skipCovers: true, duration: true }).catch(() => null))?.format.duration;
  let lastPrint = 0;
  const detections = await service.identify(createReadStream(file), {
    durationSeconds,
    onProgress: (progress) => {
      if (json || !process.stderr.isTTY || performance.now() - lastPrint < 500) return;
      lastPrint = performance.now();
      const share = progress.fraction === null ? '' : ` (${Math.round(progress.fraction * 100)}%)`;
      process.stderr.write(`\r${clock(progress.seconds)}${share}, ${progress.detections} found   `);
    },
  });
  if (!json && process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  for (const d of detections) {
    if (json)
      process.stdout.write(
        `${JSON.stringify({ externalId: d.externalId, trackId: d.trackId, title: d.title, start: d.start, end: d.end, confidence: d.confidence, speed: d.speed, pitchShift: d.pitchShift })}\n`,
      );
    else
      process.stdout.write(
        `${clock(d.start)} - ${clock(d.end)}  ${d.title}  [${d.externalId}]  confidence ${d.confidence.toFixed(2)}, speed ${((d.speed - 1) * 100).toFixed(1)}%, pitch ${d.pitchShift.toFixed(1)} st\n`,
      );
  }
  if (!json && detections.length === 0) process.stdout.write('no catalogue track found\n');
  return 0;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const [command, ...rest] = args.filter((arg) => arg !== '--json');
  // npm runs this in api/: a relative path means the directory the command was typed in.
  const paths = rest.map((path) => resolve(process.env.INIT_CWD ?? process.cwd(), path));
  if (command !== 'index' && command !== 'identify') throw new Error(usage);
  const config = loadConfig({ ...process.env, DEMO: '0' });
  const log = pino({ level: config.LOG_LEVEL }, pino.destination(2));
  const database = await prepareDatabase(config, log);
  const orm = await openOrm(database.url, log);
  try {
    await migrate(orm);
    return command === 'index' ? await index(orm, paths) : await identify(orm, paths[0], json);
  } finally {
    await orm.close();
    await database.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(
      `recognition failed: ${error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
