import { encodeMp3, fingerprintReference } from '../../src/modules/recognition/recognition.js';
import { CatalogueService } from '../../src/modules/tracks/catalogue/catalogue.service.js';
import type { TestApp } from './app.js';
import {
  CONDITIONS,
  type MixCondition,
  planMix,
  referenceAudio,
  renderMix,
  TEST_SAMPLE_RATE,
  testReferences,
  truthOf,
} from './recognition-test-set/generate.js';

/** A short generated mix for the job's tests: 7 references (4 in the catalogue), 3 plays, a quarter unknown. */
export const SET = testReferences(7, 4, 1, 75);
const condition: MixCondition = { ...(CONDITIONS[0] as MixCondition), play: [35, 45], crossfade: [16, 24], unknownShare: 0.25 };
export const MIX = planMix(SET, condition, 3, 3);
export const TRUTH = truthOf(MIX);
export const trackIdOf = (track: number) => `00000000-0000-4000-8000-00000000000${track}`;

/**
 * The set's known references as catalogue tracks (external ids `T<n>`), fingerprinted except those `unindexed` names,
 * and the mix as a 128 kbps MP3.
 */
export async function catalogueAndMix(t: TestApp, unindexed: number[] = []): Promise<Buffer> {
  const known = SET.references.filter((reference) => reference.known);
  await new CatalogueService(t.services.orm).write(
    known.map((reference) => ({
      id: trackIdOf(reference.track),
      source: 'test',
      externalId: `T${reference.track}`,
      title: `Reference ${reference.track}`,
      creators: [{ id: null, name: 'Test Artist' }],
      label: null,
      cover: null,
      releaseDate: null,
      buy: false,
      newRelease: false,
    })),
  );
  for (const reference of known.filter((r) => !unindexed.includes(r.track)))
    await t.services.recognition.storeFingerprints(
      trackIdOf(reference.track),
      fingerprintReference(referenceAudio(reference), TEST_SAMPLE_RATE),
    );
  return Buffer.from(await encodeMp3(renderMix(SET, MIX), TEST_SAMPLE_RATE, 128));
}
