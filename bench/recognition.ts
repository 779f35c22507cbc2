/**
 * Audio recognition: our fingerprinting engine on generated DJ mixes with known tracklists, per condition (speed
 * changes with and without key lock, EQ and filter moves, noise, short plays, everything at once), each mix an MP3
 * (44.1 kHz stereo 128 kbps when `sox` and `lame` are installed, else mono 22.05 kHz) decoded as a stream.
 * Prints recall, precision, false detections per hour of mix, median start-time error, speed (audio seconds per CPU
 * second of this process: MP3 in, tracklist out), peak memory the query added, then index size per hour of reference
 * audio and how query time grows from 100 to 1,000 reference hours (the real fingerprints plus synthetic ones drawn
 * from the real hashes' per-field statistics). When Olaf is built in /tmp/Olaf (`make compile_core`), it runs on the
 * same mixes (its streaming query mode) and gets a row per condition too.
 *
 * Environment: BENCH_RECOGNITION_MINUTES (per mix, 15), BENCH_RECOGNITION_MIXES (per condition, 2),
 * BENCH_RECOGNITION_CONDITIONS (comma-separated row numbers, all), BENCH_RECOGNITION_SCALING (0 skips the catalogue
 * growth), BENCH_RECOGNITION_LONG_MINUTES (a long mix for memory, 60; 0 skips).
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Resampler } from '../api/src/modules/recognition/dsp.js';
import { entryPitch, entrySpan, fingerprintReference, HASH_SPACE } from '../api/src/modules/recognition/fingerprint.js';
import { IndexBuilder, type MemoryIndex } from '../api/src/modules/recognition/fingerprint-index.js';
import type { RawDetection } from '../api/src/modules/recognition/matcher.js';
import { decodeMp3, encodeMp3 } from '../api/src/modules/recognition/mp3.js';
import { recognizeMp3 } from '../api/src/modules/recognition/recognition.js';
import { RecognitionThread } from '../api/src/modules/recognition/recognition-thread.js';
import { Random } from '../api/src/shared/random.js';
import {
  CONDITIONS,
  HARD_CONDITIONS,
  type MixCondition,
  type PlannedMix,
  planMix,
  referenceAudio,
  renderMix,
  score,
  TEST_SAMPLE_RATE,
  type TestSet,
  type Truth,
  testReferences,
  truthOf,
} from '../api/test/support/recognition-test-set/generate.js';
import { percent, printConfidences, printTable, type Row, total } from './recognition-report.js';

/**
 * The first seed is the one the engine was tuned on; the others are held out (never looked at while tuning): each gets
 * its own catalogue and mixes and its own table.
 */
const TUNED_SEED = 2016;
const SEEDS = (process.env.BENCH_RECOGNITION_SEEDS ?? `${TUNED_SEED},4711`).split(',').map(Number);
/** The row of the older conditions' hardest (its mixes serve the long mix and the catalogue growth). */
const EVERYTHING = CONDITIONS.findIndex((condition) => condition.name === 'everything at once');
const KNOWN = 60;
const UNKNOWN = 15;
const MINUTES = Number(process.env.BENCH_RECOGNITION_MINUTES ?? 15);
const MIXES = Number(process.env.BENCH_RECOGNITION_MIXES ?? 2);
const ROWS = process.env.BENCH_RECOGNITION_CONDITIONS?.split(',').map(Number) ?? CONDITIONS.map((_, i) => i);
const SCALING = process.env.BENCH_RECOGNITION_SCALING !== '0';
const LONG_MINUTES = Number(process.env.BENCH_RECOGNITION_LONG_MINUTES ?? 60);
const CACHE = join(tmpdir(), 'mixcrate-recognition-bench');
const OLAF = '/tmp/Olaf/bin/olaf_core';
const MB = 1024 * 1024;
/** The index's memory whatever its size: one offset per hash key and one bit. */
const ONCE = (HASH_SPACE + 1) * 4 + ((HASH_SPACE >>> 5) + 1) * 4;

const has = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
const STEREO_44K = has('sox') && has('lame');

/** The mix as an MP3 file (cached in the temp folder: the same seed always gives the same file). */
async function mixFile(set: TestSet, mix: PlannedMix, name: string): Promise<string> {
  mkdirSync(CACHE, { recursive: true });
  const kbps = mix.condition.kbps ?? 128;
  const file = join(CACHE, `${name}-${STEREO_44K ? 'stereo44' : 'mono22'}${kbps === 128 ? '' : `-${kbps}k`}.mp3`);
  if (existsSync(file)) return file;
  const audio = renderMix(set, mix);
  if (STEREO_44K) {
    const raw = `${file}.f32`;
    writeFileSync(raw, new Uint8Array(audio.buffer, audio.byteOffset, audio.byteLength));
    const made = spawnSync('sh', [
      '-c',
      `sox -t f32 -r ${TEST_SAMPLE_RATE} -c 1 '${raw}' -r 44100 -c 2 -t wav - | lame --quiet -b ${kbps} - '${file}' && rm '${raw}'`,
    ]);
    if (made.status !== 0) throw new Error(`encoding failed: ${made.stderr}`);
  } else {
    writeFileSync(file, await encodeMp3(audio, TEST_SAMPLE_RATE, kbps === 64 ? 64 : 128));
  }
  return file;
}

interface Run {
  detections: RawDetection[];
  truth: Truth[];
  seconds: number;
  cpuSeconds: number;
  peakMemory: number;
}

/** Memory the process holds in JavaScript objects and buffers (WebAssembly memory included). */
const held = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
};
/** Full garbage collections, with pauses so freed buffers are really released before memory is read. */
async function collect() {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let round = 0; round < 2; round += 1) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * One recognition of an MP3 file as the job will do it: read as a stream, decoded and matched on this thread. Its
 * memory is the peak of what the process holds while it runs (sampled every 4 s of audio) over what it held before
 * (after a full garbage collection): the query's own memory, not the shared index's.
 */
async function recognise(file: string, index: MemoryIndex, truth: Truth[], seconds: number): Promise<Run> {
  await collect();
  const before = held();
  let peak = before;
  const cpu = process.cpuUsage();
  const detections = await recognizeMp3(createReadStream(file, { highWaterMark: 64 * 1024 }), index, {
    durationSeconds: seconds,
    onProgress: () => {
      peak = Math.max(peak, held());
    },
  });
  const used = process.cpuUsage(cpu);
  peak = Math.max(peak, held());
  return { detections, truth, seconds, cpuSeconds: (used.user + used.system) / 1e6, peakMemory: peak - before };
}

// ------------------------------------------------------------------------------------------------------------------
// Olaf, for comparison

interface Olaf {
  home: string;
}

/** Olaf's home, where each reference's audio is written as it is rendered (rendering them twice took minutes). */
async function olafHome(): Promise<Olaf | null> {
  if (!existsSync(OLAF)) return null;
  const home = await mkdtemp(join(tmpdir(), 'olaf-home-'));
  mkdirSync(join(home, '.olaf', 'db'), { recursive: true });
  return { home };
}

function olafReference(olaf: Olaf, track: number, audio: Float32Array) {
  writeFileSync(join(olaf.home, `ref-${track}.raw`), toOlafRaw(audio, TEST_SAMPLE_RATE));
}

async function olafSetup(olaf: Olaf | null, set: TestSet): Promise<Olaf | null> {
  if (!olaf) return null;
  const { home } = olaf;
  const args: string[] = ['store'];
  for (const reference of set.references.filter((r) => r.known))
    args.push(join(home, `ref-${reference.track}.raw`), `ref-${reference.track}.mp3`);
  const stored = spawnSync(OLAF, args, { env: { ...process.env, HOME: home }, encoding: 'utf8' });
  if (stored.status !== 0) throw new Error(`olaf store failed: ${stored.stderr}`);
  return { home };
}

/** Olaf reads raw 32-bit float mono at 16 kHz. */
function toOlafRaw(samples: Float32Array, rate: number): Uint8Array {
  const resampler = new Resampler(rate, 16_000);
  const a = resampler.process(samples).slice();
  const b = resampler.flush();
  const out = new Float32Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return new Uint8Array(out.buffer);
}

/** Olaf's streaming query (results every 3 s over the last 10 s) on the decoded mix; rows of one track merged. */
async function olafRecognise(olaf: Olaf, file: string, truth: Truth[], seconds: number) {
  const parts: Float32Array[] = [];
  let rate = 0;
  await decodeMp3(createReadStream(file), (mono, sampleRate) => {
    rate = sampleRate;
    parts.push(mono.slice());
  });
  const all = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  const raw = join(olaf.home, 'query.raw');
  writeFileSync(raw, toOlafRaw(all, rate));
  const started = process.hrtime.bigint();
  // Olaf's stdin mode reads a redirected file (a pipe from Node closes early).
  const timed = existsSync('/usr/bin/time') ? "/usr/bin/time -f 'MAXRSS %M' " : '';
  const run = spawnSync('sh', ['-c', `${timed}'${OLAF}' query < '${raw}'`], {
    env: { ...process.env, HOME: olaf.home },
    encoding: 'utf8',
    maxBuffer: 256 * MB,
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const maxRss = Number(/MAXRSS (\d+)/.exec(run.stderr)?.[1] ?? Number.NaN) * 1024;
  await rm(raw);
  const hits: { track: number; start: number; end: number }[] = [];
  for (const line of run.stdout.split('\n')) {
    const cells = line.split(',').map((c) => c.trim());
    const match = /ref-(\d+)\.mp3/.exec(cells[3] ?? '');
    if (!match || Number(cells[0]) <= 0) continue;
    hits.push({ track: Number(match[1]), start: Number(cells[1]), end: Number(cells[2]) });
  }
  hits.sort((a, b) => a.start - b.start);
  const detections: { track: number; start: number; end: number }[] = [];
  for (const hit of hits) {
    const open = detections.find((d) => d.track === hit.track && hit.start <= d.end + 20);
    if (open) open.end = Math.max(open.end, hit.end);
    else detections.push({ ...hit });
  }
  return { detections, truth, seconds, wall, maxRss };
}

// ------------------------------------------------------------------------------------------------------------------
// The API's event loop while a mix is recognised

/** How late a 10 ms timer fires on this thread while `work` runs: p50, p99 and max, milliseconds. */
async function eventLoopDelay(work: () => Promise<unknown>) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  await work();
  histogram.disable();
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  return `p50 ${ms(histogram.percentile(50))} ms, p99 ${ms(histogram.percentile(99))} ms, max ${ms(histogram.max)} ms`;
}

async function printEventLoopDelay(file: string, index: MemoryIndex, real: { track: number; hashes: Uint32Array; data: Uint32Array }[]) {
  const inline = await eventLoopDelay(() => recognizeMp3(createReadStream(file, { highWaterMark: 64 * 1024 }), index));
  const thread = new RecognitionThread();
  async function* batches() {
    for (const r of real) yield { hashes: r.hashes.slice(), tracks: new Uint32Array(r.hashes.length).fill(r.track), data: r.data.slice() };
  }
  await thread.loadIndex('bench', batches());
  const started = performance.now();
  const onThread = await eventLoopDelay(() => thread.identify(createReadStream(file, { highWaterMark: 64 * 1024 }), () => undefined));
  const seconds = (performance.now() - started) / 1000;
  await thread.close();
  // The same span with nothing to do: how late timers fire anyway on this machine (its load, garbage collection).
  const idle = await eventLoopDelay(() => new Promise((resolve) => setTimeout(resolve, seconds * 1000)));
  console.log(`\nEvent loop delay while one mix is recognised (monitorEventLoopDelay, 10 ms resolution):`);
  console.log(`  before, on the event loop's thread:   ${inline}`);
  console.log(`  after, on the recognition thread:     ${onThread}`);
  console.log(`  idle, for the same ${seconds.toFixed(0)} s:            ${idle}`);
}

// ------------------------------------------------------------------------------------------------------------------
// Catalogue growth

/** The real fingerprints plus synthetic ones up to `hours` of reference audio, each field drawn from the real ones. */
function grownIndex(
  seed: number,
  set: TestSet,
  real: { track: number; hashes: Uint32Array; data: Uint32Array }[],
  realHours: number,
  hours: number,
): MemoryIndex {
  const perHour = real.reduce((n, r) => n + r.hashes.length, 0) / realHours;
  const extra = Math.round(perHour * (hours - realHours));
  const builder = new IndexBuilder();
  builder.reserve(Math.round(perHour * hours));
  for (const r of real) builder.add(r.track, r);
  // Per-field pools: the hash's six cells and the entry's span and pitch, each from a random real quad.
  const pool = real.flatMap((r) =>
    Array.from({ length: Math.min(2000, r.hashes.length) }, (_, i) => [r.hashes[i] as number, r.data[i] as number]),
  );
  const random = new Random(seed + hours);
  const pick = () => pool[Math.floor(random.next() * pool.length)] as number[];
  const radices = [20, 25, 25, 25, 8, 8]; // pitch cell, D, C, B intervals, xD, xC (least significant first)
  const entriesPerTrack = Math.round(perHour / 18); // 200 s tracks
  const firstTrack = set.references.length + 1000;
  for (let i = 0; i < extra; i += 1) {
    let hash = 0;
    let scale = 1;
    for (const radix of radices) {
      const cell = Math.floor(((pick()[0] as number) / scale) % radix);
      hash += cell * scale;
      scale *= radix;
    }
    const data = pick()[1] as number;
    const time = Math.floor(random.next() * 200 * 62.5);
    const packed = ((time << 14) | (entrySpan(data) << 7) | Math.round(entryPitch(data) * 2)) >>> 0;
    builder.addRow(Math.min(HASH_SPACE - 1, hash), firstTrack + Math.floor(i / entriesPerTrack), packed);
  }
  return builder.build();
}

// ------------------------------------------------------------------------------------------------------------------

/** The index and table of one seed; with `everything`, the event loop, the long mix and the catalogue growth too. */
async function runSeed(setSeed: number, everything: boolean) {
  console.log(`\n=== seed ${setSeed}${setSeed === TUNED_SEED ? ' (the one tuned on)' : ' (held out: never run while tuning)'} ===`);
  const set = testReferences(setSeed, KNOWN, UNKNOWN);
  const real: { track: number; hashes: Uint32Array; data: Uint32Array }[] = [];
  let referenceSeconds = 0;
  let fingerprintCpu = 0;
  const home = await olafHome();
  for (const reference of set.references.filter((r) => r.known)) {
    const audio = referenceAudio(reference);
    const cpu = process.cpuUsage();
    const fingerprints = fingerprintReference(audio, TEST_SAMPLE_RATE);
    const used = process.cpuUsage(cpu);
    fingerprintCpu += (used.user + used.system) / 1e6;
    referenceSeconds += fingerprints.seconds;
    real.push({ track: reference.track, ...fingerprints });
    if (home) olafReference(home, reference.track, audio);
  }
  const builder = new IndexBuilder();
  for (const r of real) builder.add(r.track, r);
  const index = builder.build();
  const referenceHours = referenceSeconds / 3600;
  const entriesPerHour = index.size / referenceHours;
  console.log(
    `Index: ${(referenceHours).toFixed(2)} h of references, ${index.size} entries (${Math.round(entriesPerHour / 3600)} per second of audio); ` +
      `${((entriesPerHour * 12) / MB).toFixed(2)} MB per reference hour as 12-byte rows (hash, track, data), ${((index.bytes - ONCE) / referenceHours / MB).toFixed(2)} MB in memory with the tracks' root peaks ` +
      `(+ ${Math.round(ONCE / MB)} MB offset table and key bitmap once); references fingerprinted at ${Math.round(referenceSeconds / fingerprintCpu)}x real time`,
  );

  const olaf = await olafSetup(home, set);
  if (!olaf) console.log(`(Olaf not found at ${OLAF}: build it there with make compile_core for its rows)`);
  const rows: Row[] = [];
  const mixesByCondition = new Map<number, { file: string; truth: Truth[]; seconds: number }[]>();
  for (const row of ROWS) {
    const condition = CONDITIONS[row] as MixCondition;
    const runs: Run[] = [];
    const olafRuns: Awaited<ReturnType<typeof olafRecognise>>[] = [];
    const mixes: { file: string; truth: Truth[]; seconds: number }[] = [];
    for (let m = 0; m < MIXES; m += 1) {
      const seed = setSeed + row * 100 + m;
      const mix = planMix(set, condition, seed, MINUTES);
      const file = await mixFile(set, mix, `${setSeed}-${row}-${m}-${MINUTES}`);
      mixes.push({ file, truth: truthOf(mix), seconds: mix.durationSeconds });
      runs.push(await recognise(file, index, truthOf(mix), mix.durationSeconds));
      if (olaf) olafRuns.push(await olafRecognise(olaf, file, truthOf(mix), mix.durationSeconds));
    }
    mixesByCondition.set(row, mixes);
    const hours = runs.reduce((n, r) => n + r.seconds, 0) / 3600;
    rows.push({
      name: condition.name,
      hours,
      scored: total(runs),
      speed: (hours * 3600) / runs.reduce((n, r) => n + r.cpuSeconds, 0),
      memory: Math.max(...runs.map((r) => r.peakMemory)),
    });
    if (olaf)
      rows.push({
        name: `  Olaf`,
        hours,
        scored: total(olafRuns),
        speed: (hours * 3600) / olafRuns.reduce((n, r) => n + r.wall, 0),
        memory: olafRuns.some((r) => Number.isNaN(r.maxRss)) ? null : Math.max(...olafRuns.map((r) => r.maxRss)),
      });
    // Each row as it completes, so a long run shows its figures before its end.
    printTable(rows.slice(olaf ? -2 : -1));
  }
  console.log(`\nseed ${setSeed}:`);
  printTable(rows);
  console.log(
    "(start err: median seconds from each found play's fade-in start, p90 its 90th percentile; mid-fade err: from the middle of its fade in;",
  );
  console.log(' speed err and pitch err: median distance of the speed and pitch shift a detection reports from those played)');
  const ours = rows.filter((row) => !row.name.startsWith(' '));
  const newer = ours.filter((row) => HARD_CONDITIONS.some((c) => c.name === row.name));
  const older = ours.filter((row) => !newer.includes(row));
  for (const [name, group] of [
    ['older conditions', older],
    ['wider conditions', newer],
    ['all', ours],
  ] as const) {
    if (group.length === 0) continue;
    const t = { plays: 0, found: 0, detections: 0, correct: 0, falseDetections: 0 };
    for (const row of group) for (const key of Object.keys(t) as (keyof typeof t)[]) t[key] += row.scored[key];
    const hours = group.reduce((n, row) => n + row.hours, 0);
    console.log(
      `${name.padEnd(17)} ${hours.toFixed(1)} h: recall ${percent(t.found, t.plays)}, precision ${percent(t.correct, t.detections)}, ${t.falseDetections} false (${(t.falseDetections / hours).toFixed(2)} per hour)`,
    );
  }
  printConfidences(ours);
  if (olaf) {
    console.log(
      "(Olaf's speed is the wall time of its C query on the decoded mix at 16 kHz; its memory is its peak RSS, database included)",
    );
    await rm(olaf.home, { recursive: true, force: true });
  }

  if (!everything) return;
  const firstMix = [...mixesByCondition.values()][0]?.[0];
  if (firstMix) await printEventLoopDelay(firstMix.file, index, real);

  if (LONG_MINUTES > 0) {
    const condition = CONDITIONS[EVERYTHING] as MixCondition;
    const mix = planMix(set, condition, setSeed + 9999, LONG_MINUTES);
    const file = await mixFile(set, mix, `${setSeed}-long-${LONG_MINUTES}`);
    const run = await recognise(file, index, truthOf(mix), mix.durationSeconds);
    const s = score(run.truth, run.detections);
    console.log(
      `\nLong mix (${condition.name}, ${(mix.durationSeconds / 60).toFixed(0)} min): query memory ${Math.round(run.peakMemory / MB)} MB (process RSS ${Math.round(process.memoryUsage().rss / MB)} MB with the index and the thread's MP3 decoder, 0.7 MB, kept between recordings), ` +
        `${Math.round(mix.durationSeconds / run.cpuSeconds)}x real time, recall ${percent(s.found, s.plays)}, precision ${percent(s.correct, s.detections)}`,
    );
  }

  if (SCALING) {
    const mixes = [...(mixesByCondition.get(0) ?? []), ...(mixesByCondition.get(EVERYTHING) ?? [])];
    if (mixes.length === 0) {
      console.log('\n(catalogue growth needs rows 0 or the last one)');
    } else {
      console.log(
        `\nCatalogue growth (${mixes.length} mixes of rows 0% and everything at once; synthetic fingerprints fill up to the size):`,
      );
      const perMixHour: number[] = [];
      for (const hours of [100, 1000]) {
        const grown = grownIndex(setSeed, set, real, referenceHours, hours);
        const runs: Run[] = [];
        for (const mix of mixes) runs.push(await recognise(mix.file, grown, mix.truth, mix.seconds));
        const audio = runs.reduce((n, r) => n + r.seconds, 0) / 3600;
        const cpuPerHour = runs.reduce((n, r) => n + r.cpuSeconds, 0) / audio;
        perMixHour.push(cpuPerHour);
        const s = total(runs);
        console.log(
          `  ${String(hours).padStart(5)} h (${(grown.size / 1e6).toFixed(0)} M entries, ${Math.round(grown.bytes / MB)} MB in memory): ` +
            `${cpuPerHour.toFixed(1)} CPU s per mix hour (${Math.round(3600 / cpuPerHour)}x real time), recall ${percent(s.found, s.plays)}, ` +
            `precision ${percent(s.correct, s.detections)}, ${(s.falseDetections / audio).toFixed(1)} false/h`,
        );
      }
      console.log(`  growth from 100 h to 1,000 h: ${((perMixHour[1] as number) / (perMixHour[0] as number)).toFixed(2)}x`);
    }
  }
}

async function main() {
  console.log(
    `Recognition: ${KNOWN} catalogue references, ${UNKNOWN} unknown; ${MIXES} mixes of ${MINUTES} min per condition; seeds ${SEEDS.join(', ')}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `MP3 ${STEREO_44K ? '44.1 kHz stereo (sox + lame)' : '22.05 kHz mono (wasm LAME)'}, 128 kbps unless the condition says 64; speed = audio seconds per CPU second of one thread (decode + fingerprint + match)`,
  );
  for (const [i, seed] of SEEDS.entries()) await runSeed(seed, i === 0);
  console.log(
    `\nload average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

// Memory is measured after full garbage collections: run again with them exposed when they are not.
if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
  const again = spawnSync(process.execPath, ['--expose-gc', ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}
await main();
