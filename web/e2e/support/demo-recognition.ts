/**
 * Run under the API's tsx (cwd api/): `node --import tsx ../web/e2e/support/demo-recognition.ts DATABASE_URL OUT.mp3`.
 * Puts a few of the demo world's references into the journeys' catalogue and recognition index (as the demo world
 * does at start, which the journeys' server skips), and writes a mix made of them: each reference plays about 45 s,
 * crossfaded into the next. Prints the mix's tracklist as JSON: [{ trackId, title, creators, startTime }].
 */
import { writeFile } from 'node:fs/promises';
import pino from 'pino';
import { openOrm } from '../../../api/src/db/orm.js';
import { mixAudio } from '../../../api/src/demo-world/mix-audio.js';
import { CROSSFADE_SECONDS, type PlannedMix, planWorld } from '../../../api/src/demo-world/plan.js';
import { renderReference, SAMPLE_RATE } from '../../../api/src/demo-world/synth.js';
import { encodeMp3, fingerprintReference } from '../../../api/src/modules/recognition/recognition.js';
import { RecognitionService } from '../../../api/src/modules/recognition/recognition.service.js';
import { CatalogueService } from '../../../api/src/modules/tracks/catalogue/catalogue.service.js';

const SEGMENT_SECONDS = 45;
/** Demo references far apart in style, so each is told from the others at once. */
const REFERENCES = [3, 21, 40, 58];

async function main(databaseUrl: string, out: string) {
  const world = planWorld();
  const chosen = REFERENCES.map((index) => {
    const reference = world.references[index];
    if (!reference) throw new Error(`the demo world has no reference ${index}`);
    return reference;
  });
  const orm = await openOrm(databaseUrl, pino({ level: 'silent' }));
  try {
    await new CatalogueService(orm).write(
      chosen.map((reference) => ({
        id: reference.trackId,
        source: 'demo-reference',
        externalId: `ref-${reference.index}`,
        title: reference.title,
        creators: reference.creators.map((name) => ({ id: null, name })),
        label: { id: null, name: reference.label },
        cover: null,
        releaseDate: null,
        buy: false,
        newRelease: reference.newRelease,
      })),
    );
    const recognition = new RecognitionService(orm);
    for (const reference of chosen) {
      await recognition.storeFingerprints(
        reference.trackId,
        fingerprintReference(renderReference(reference.recipe, SAMPLE_RATE), SAMPLE_RATE),
      );
    }
  } finally {
    await orm.close();
  }
  const step = SEGMENT_SECONDS - CROSSFADE_SECONDS;
  const mix: PlannedMix = {
    id: 'e2e',
    ownerId: 'e2e',
    title: 'e2e',
    genre: 'techno',
    durationSeconds: step * (chosen.length - 1) + SEGMENT_SECONDS,
    cover: '',
    mp3: '',
    publishedDaysAgo: 0,
    latitude: 0,
    longitude: 0,
    segments: chosen.map((reference, position) => ({
      reference: reference.index,
      // Inside every reference: they last 60-75 s (REFERENCE_SECONDS).
      sourceStart: 10,
      startTime: position * step,
      endTime: position * step + SEGMENT_SECONDS,
    })),
  };
  await writeFile(out, await encodeMp3(mixAudio(mix, world), SAMPLE_RATE, 128));
  const tracklist = chosen.map((reference, position) => ({
    trackId: reference.trackId,
    title: reference.title,
    creators: reference.creators,
    startTime: position * step,
  }));
  process.stdout.write(`${JSON.stringify(tracklist)}\n`);
}

const [databaseUrl, out] = process.argv.slice(2);
if (!databaseUrl || !out) throw new Error('usage: demo-recognition.ts DATABASE_URL OUT.mp3');
await main(databaseUrl, out);
