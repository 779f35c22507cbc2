import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type IMix, Mix } from '../mix.entity.js';
import { mixPolicy } from '../mix.policy.js';

/**
 * The caller's own mix, its row locked for the transaction so that changes to one mix (a double click on publish, two
 * tracklists) happen one after the other; the policy decides who may change it.
 */
export async function lockOwnMix(em: EntityManager, viewerId: string, mixId: string | null): Promise<IMix> {
  const mix = mixId
    ? await em.findOne(Mix, mixId, { populate: ['owner'], lockMode: LockMode.PESSIMISTIC_WRITE, lockTableAliases: ['m0'] })
    : null;
  mixPolicy.assertCanChange(mix && { deactivated: mix.deactivatedAt != null, ownerId: mix.owner.id }, viewerId);
  return mix as IMix;
}
