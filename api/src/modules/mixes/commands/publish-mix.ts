import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../../db/orm.js';
import { TRACKLIST_MIN } from '../../../shared/domain.js';
import { parseInput } from '../../../shared/inputs.js';
import { Entitlement } from '../../payments/payment.entity.js';
import { MixErrors } from '../mix.errors.js';
import { publishInput } from '../mix.inputs.js';
import { type MixView, mixViewOf } from '../mix.views.js';
import { hostingEnds } from '../mix-lifecycle.js';
import { MixTrack } from '../mix-track.entity.js';
import { lockOwnMix } from './own-mix.js';

export interface PublishMix {
  viewerId: string;
  mixId: unknown;
  code?: unknown;
  /** The configured BETA codes, lower-case. */
  betaCodes: readonly string[];
}

/**
 * Publishes the caller's draft once it has its tracklist, on the server's own evidence only: a configured beta code
 * (compared trimmed and lower-cased; recorded as an entitlement), or an entitlement a payment already created for this
 * mix, or an active subscription. Hosting then runs HOSTING_MONTHS. The mix's row is locked for the transaction, so
 * two publishes at once happen one after the other (the second finds it published).
 */
export async function publishMix(orm: Orm, command: PublishMix): Promise<MixView> {
  const { mixId, code } = parseInput(publishInput, { mixId: command.mixId, code: command.code });
  return orm.em.fork().transactional(async (txEm) => {
    const em = txEm as EntityManager;
    const mix = await lockOwnMix(em, command.viewerId, mixId);
    if (mix.status === 'published') throw MixErrors.alreadyPublished();
    if ((await em.count(MixTrack, { mix: mix.id })) < TRACKLIST_MIN) throw MixErrors.tracklistFirst();
    const now = new Date();
    if (code) {
      if (!command.betaCodes.includes(code)) throw MixErrors.invalidCode();
      em.create(Entitlement, { user: mix.owner, mix, source: 'code', code, validFrom: now, validUntil: hostingEnds(now) });
    } else if (!(await hasPaidEntitlement(em, command.viewerId, mix.id))) {
      throw MixErrors.paymentRequired();
    }
    mix.status = 'published';
    mix.publishedAt = now;
    mix.expiresAt = hostingEnds(now);
    await em.flush();
    return mixViewOf(mix);
  });
}

async function hasPaidEntitlement(em: EntityManager, userId: string, mixId: string): Promise<boolean> {
  const rows = await em.execute<{ found: number }[]>(
    `select 1 as found from entitlement
      where user_id = ? and (mix_id = ? or (source = 'subscription' and mix_id is null))
        and valid_from <= now() and (valid_until is null or valid_until > now())
      limit 1`,
    [userId, mixId],
  );
  return rows.length > 0;
}
