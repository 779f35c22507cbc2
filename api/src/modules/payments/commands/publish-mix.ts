import type { EntityManager } from '@mikro-orm/postgresql';
import { type IMix, lockOwnMix, MixErrors, tracklistVersionInForce } from '../../mixes/index.js';
import { PaymentErrors } from '../payment.errors.js';
import { activeSubscriptionOf, type Evidence, hasTracklist, hostMix, unusedPurchase } from './hosting.js';

export interface PublishMix {
  viewerId: string;
  mixId: string | null;
  /** Trimmed and lower-cased; null when none was given. */
  code: string | null;
  /** The configured BETA codes, lower-case. */
  betaCodes: readonly string[];
  /** Whether test-mode purchases and subscriptions count (see countedProviderSql). */
  testModeCounts: boolean;
  now?: Date;
}

/**
 * Publishes the caller's draft once it has its tracklist, on the server's own evidence only, in this order: a
 * configured BETA code, a paid single purchase for this mix, an active subscription; otherwise a 402. Runs in the
 * caller's transaction with the mix's row locked, so two publishes at once happen one after the other: the second
 * finds the mix published and answers it as it is (publishing twice is harmless and makes one entitlement).
 */
export async function publishMix(em: EntityManager, command: PublishMix): Promise<IMix> {
  const now = command.now ?? new Date();
  const mix = await lockOwnMix(em, command.viewerId, command.mixId);
  if (mix.status === 'published') return mix;
  if (!(await hasTracklist(em, mix.id))) throw MixErrors.tracklistFirst();
  const evidence = await evidenceFor(em, mix, command);
  hostMix(em, mix, evidence, now);
  await em.flush();
  // The tracklist it is published with is its version 1 (docs/payments.md#tracklist-versions).
  await tracklistVersionInForce(em, mix.id);
  return mix;
}

async function evidenceFor(em: EntityManager, mix: IMix, command: PublishMix): Promise<Evidence> {
  if (command.code !== null) {
    if (!command.betaCodes.includes(command.code)) throw PaymentErrors.invalidCode();
    return { source: 'code', code: command.code };
  }
  const purchase = await unusedPurchase(em, mix.id, command.testModeCounts);
  if (purchase) return { source: 'single', entitlement: purchase };
  const subscriptionId = await activeSubscriptionOf(em, command.viewerId, command.testModeCounts);
  if (subscriptionId) return { source: 'subscription', subscriptionId };
  throw PaymentErrors.paymentRequired();
}
