/**
 * The demo world's 72 references are fingerprinted for recognition once (later calls only check), and the demo mixes,
 * made of them, are recognised from the stored index.
 */
import pino from 'pino';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, type Orm, openOrm } from '../src/db/orm.js';
import { mixAudio } from '../src/demo-world/mix-audio.js';
import { planWorld } from '../src/demo-world/plan.js';
import { indexDemoReferencesOnce } from '../src/demo-world/recognition-references.js';
import { SAMPLE_RATE } from '../src/demo-world/synth.js';
import { encodeWav } from '../src/modules/recognition/audio.js';
import { RecognitionService } from '../src/modules/recognition/recognition.service.js';
import { CatalogueService } from '../src/modules/tracks/catalogue/catalogue.service.js';
import { createTestDatabase, dropTestDatabase } from './support/app.js';

const log = pino({ level: 'silent' });
const world = planWorld();
let url: string;
let orm: Orm;

beforeAll(async () => {
  url = await createTestDatabase();
  orm = await openOrm(url, log);
  await migrate(orm);
  // The references' catalogue tracks, as the demo world writes them (their stable ids).
  await new CatalogueService(orm).write(
    world.references.map((reference) => ({
      id: reference.trackId,
      source: 'demo-reference',
      externalId: `ref-${reference.index}`,
      title: reference.title,
      creators: reference.creators.map((name) => ({ id: null, name })),
      label: null,
      cover: null,
      releaseDate: null,
      buy: false,
      newRelease: false,
    })),
  );
}, 60_000);
afterAll(async () => {
  await orm?.close();
  if (url) await dropTestDatabase(url);
});

test('the demo references are fingerprinted once; the demo mixes are recognised from them', async () => {
  const started = Date.now();
  expect(await indexDemoReferencesOnce({ orm, log })).toBe(72);
  const firstMs = Date.now() - started;
  const again = Date.now();
  expect(await indexDemoReferencesOnce({ orm, log })).toBe(0);
  process.stdout.write(`demo references: first ${firstMs} ms, again ${Date.now() - again} ms\n`);
  const recognition = new RecognitionService(orm);
  expect(await recognition.referenceCount()).toBe(72);

  for (const mix of world.mixes.slice(0, 2)) {
    const detections = await recognition.identify([encodeWav(mixAudio(mix, world), SAMPLE_RATE)]);
    const playlist = mix.segments.map((segment) => world.references[segment.reference]?.trackId);
    // Nothing found that is not in the tracklist, in tracklist order, and most of the tracklist found.
    expect(detections.every((detection) => playlist.includes(detection.trackId))).toBe(true);
    const positions = detections.map((detection) => playlist.indexOf(detection.trackId));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(detections.length).toBeGreaterThanOrEqual(Math.ceil(playlist.length / 2));
    for (const detection of detections) {
      const segment = mix.segments[playlist.indexOf(detection.trackId)];
      expect(Math.abs(detection.start - (segment?.startTime ?? 0))).toBeLessThan(15);
    }
  }
}, 300_000);
