import { ArrayType, defineEntity, p } from '@mikro-orm/core';
import { Mix } from '../mixes/mix.entity.js';
import { Track } from '../tracks/track.entity.js';
import { User } from '../users/user.entity.js';

/**
 * The recognition index, derived from catalogue tracks' audio (see RecognitionService). Written and read with SQL
 * only; declared here so the schema the entities describe matches the migrations.
 */

/** A catalogue track whose audio is fingerprinted: `referenceNo` is its track number in the in-memory index. */
export const RecognitionReference = defineEntity({
  name: 'RecognitionReference',
  tableName: 'recognition_reference',
  properties: {
    referenceNo: p.integer().primary().autoincrement(),
    track: () => p.manyToOne(Track).deleteRule('cascade').unique('recognition_reference_track_unique'),
    /** Length of the fingerprinted audio. */
    seconds: p.double().$type<number>().runtimeType('number'),
    indexedAt: p.datetime(),
  },
});

/** One fingerprint entry (hash int4, packed data int4) of a reference; the index is built from all of them. */
export const RecognitionFingerprint = defineEntity({
  name: 'RecognitionFingerprint',
  tableName: 'recognition_fingerprint',
  properties: {
    reference: () => p.manyToOne(RecognitionReference).fieldName('reference_no').primary().deleteRule('cascade'),
    hash: p.integer().primary().index('recognition_fingerprint_hash_idx'),
    data: p.integer().primary(),
  },
});

/**
 * Reference audio that matched another owner's track when it was added (docs/creators.md#reference-audio): held here,
 * fingerprinted, until a moderator decides; approved, it becomes the track's reference.
 */
export const PendingReference = defineEntity({
  name: 'PendingReference',
  tableName: 'pending_reference',
  properties: {
    id: p.uuid().primary(),
    track: () => p.manyToOne(Track).deleteRule('cascade'),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    matchedTrack: () => p.manyToOne(Track).nullable().deleteRule('set null'),
    seconds: p.double().$type<number>().runtimeType('number'),
    hashes: p.type(new ArrayType<number>((item) => Number(item))).columnType('int[]'),
    data: p.type(new ArrayType<number>((item) => Number(item))).columnType('int[]'),
    createdAt: p.datetime(),
  },
});

/** The recognition job of a mix: its state, and how much of the audio it has scanned. */
export const RecognitionJob = defineEntity({
  name: 'RecognitionJob',
  tableName: 'recognition_job',
  properties: {
    mix: () => p.oneToOne(Mix).primary().deleteRule('cascade'),
    state: p.string().length(10),
    fraction: p.double().$type<number>().runtimeType('number').default(0),
    updatedAt: p.datetime(),
    /** The newest reference (its indexed_at) in the index the last finished run used: older than a reference, it is stale. */
    referencesAt: p.datetime().nullable(),
  },
});

/** A catalogue track found in a mix: seconds in the mix. */
export const RecognitionResult = defineEntity({
  name: 'RecognitionResult',
  tableName: 'recognition_result',
  properties: {
    id: p.integer().primary().autoincrement(),
    mix: () => p.manyToOne(Mix).deleteRule('cascade').index('recognition_result_mix_idx'),
    track: () => p.manyToOne(Track).deleteRule('cascade'),
    start: p.double().$type<number>().runtimeType('number'),
    end: p.double().$type<number>().runtimeType('number'),
    confidence: p.double().$type<number>().runtimeType('number'),
  },
});

export const recognitionEntities = [RecognitionReference, RecognitionFingerprint, PendingReference, RecognitionJob, RecognitionResult];
