import { NotifiedCache } from '../../db/notified-cache.js';
import type { MixAccessFacts } from '../mixes/index.js';

/**
 * What delivery needs to know about the mix a file belongs to: what the mix policy decides access from, and when its
 * owner's suspension ends (nothing notifies then, so the entry lapses by itself).
 */
export type MixFileFacts = MixAccessFacts & { ownerSuspendedUntil: Date | null };
export type MixFileCache = NotifiedCache<MixFileFacts>;

/** The channel the mix table's trigger notifies (see Migration20261124000000_mix_files) with the changed file names. */
const MIX_FILES_CHANNEL = 'mix_files_changed';

/**
 * The facts of each file's mix, so a listener seeking through a mix (dozens of Range requests) costs one database
 * query, not one each. The mix table notifies every change of status, deactivation, expiry or files; an entry also
 * lapses when its mix expires or its owner's suspension ends.
 */
export const mixFileCache = (connectionString: string, log: { warn(object: object, message: string): void }): MixFileCache =>
  new NotifiedCache<MixFileFacts>(connectionString, log, {
    channel: MIX_FILES_CHANNEL,
    expiresAt: (facts) => earliest(facts.expiresAt, facts.ownerSuspended ? facts.ownerSuspendedUntil : null),
  });

const earliest = (a: Date | null, b: Date | null): Date | null => (a && b ? (a < b ? a : b) : (a ?? b));
