import type { EntityManager } from '@mikro-orm/postgresql';
import { TRACKLIST_MIN } from '../../../shared/domain.js';
import { hostingEnds, type IMix, MixTrack, PUBLISHED_ACTIVE_MIX_SQL } from '../../mixes/index.js';
import { Entitlement, type IEntitlement } from '../payment.entity.js';
import { activeSubscriptionSql, countedProviderSql, paymentPolicy } from '../payment.policy.js';

/** The evidence a mix is hosted on: a BETA code, a paid single purchase (its entitlement), or an active subscription. */
export type Evidence =
  | { source: 'code'; code: string }
  | { source: 'single'; entitlement: IEntitlement }
  | { source: 'subscription'; subscriptionId: string };

export const hasTracklist = async (em: EntityManager, mixId: string) => (await em.count(MixTrack, { mix: mixId })) >= TRACKLIST_MIN;

/**
 * Hosts the (locked) mix on `evidence`: a draft is published; a published mix's hosting is renewed. Codes and single
 * purchases host for HOSTING_MONTHS (a renewal from the later of now and the current end); a subscription hosts with
 * no end while it is active (syncSubscriptionHosting sets one when it ends). The entitlement records why.
 */
export function hostMix(em: EntityManager, mix: IMix, evidence: Evidence, now: Date): void {
  const renewing = mix.status === 'published';
  const from = renewing && mix.expiresAt && mix.expiresAt.getTime() > now.getTime() ? mix.expiresAt : now;
  const until = evidence.source === 'subscription' ? null : hostingEnds(from);
  if (!renewing) {
    mix.status = 'published';
    mix.publishedAt = now;
  }
  mix.expiresAt = until;
  if (evidence.source === 'single') {
    evidence.entitlement.mix = mix;
    evidence.entitlement.validFrom = now;
    evidence.entitlement.validUntil = until;
  } else {
    em.create(Entitlement, {
      user: mix.owner,
      mix,
      source: evidence.source,
      code: evidence.source === 'code' ? evidence.code : null,
      subscription: evidence.source === 'subscription' ? evidence.subscriptionId : null,
      validFrom: now,
      validUntil: until,
    });
  }
}

/** A paid single purchase for this mix not used yet (paid before the mix could be published); see countedProviderSql. */
export const unusedPurchase = (em: EntityManager, mixId: string, testModeCounts: boolean) =>
  em.findOne(
    Entitlement,
    {
      mix: mixId,
      source: 'single',
      validUntil: null,
      payment: { status: 'paid', ...(testModeCounts ? {} : { provider: { $ne: 'test' } }) },
    },
    { orderBy: { createdAt: 'asc' } },
  );

/** The member's active subscription's id, if any; see countedProviderSql. */
export async function activeSubscriptionOf(em: EntityManager, userId: string, testModeCounts: boolean): Promise<string | null> {
  const [row] = await em.execute<{ id: string }[]>(
    `select id from subscription where user_id = ? and ${activeSubscriptionSql('subscription', testModeCounts)}
      order by current_period_end desc nulls first limit 1`,
    [userId],
  );
  return row?.id ?? null;
}

/** The member's published mixes whose latest entitlement is a subscription's (SQL over `mix`). */
const HOSTED_BY_SUBSCRIPTION_SQL = `owner_id = ? and ${PUBLISHED_ACTIVE_MIX_SQL}
  and (select e.source from entitlement e where e.mix_id = mix.id order by e.created_at desc limit 1) = 'subscription'`;

/**
 * Keeps a member's subscription-hosted mixes in step with their subscriptions: while one is active the mixes have no
 * end; once none is, they end `graceDays` after the last one ended (its end, or its last paid period's end), and a
 * new subscription brings them back. Returns how many mixes changed.
 */
export async function syncSubscriptionHosting(
  em: EntityManager,
  userId: string,
  graceDays: number,
  testModeCounts: boolean,
): Promise<number> {
  const active = await activeSubscriptionOf(em, userId, testModeCounts);
  if (active) {
    const changed = await em.execute<{ id: string }[]>(
      `update mix set expires_at = null where ${HOSTED_BY_SUBSCRIPTION_SQL} and expires_at is not null returning id`,
      [userId],
    );
    return changed.length;
  }
  const [last] = await em.execute<{ ended: Date | string | null }[]>(
    `select max(coalesce(ended_at, current_period_end, state_as_of)) as ended from subscription
      where user_id = ? and ${countedProviderSql('subscription', testModeCounts)}`,
    [userId],
  );
  if (!last?.ended) return 0;
  const ends = paymentPolicy.subscriptionHostingEnds(new Date(last.ended), graceDays);
  const changed = await em.execute<{ id: string }[]>(
    `update mix set expires_at = ? where ${HOSTED_BY_SUBSCRIPTION_SQL} and expires_at is distinct from ? returning id`,
    [ends, userId, ends],
  );
  return changed.length;
}

/**
 * Mixes whose hosting rests on the test mode's word (their latest entitlement is a test-mode purchase or subscription)
 * once the test mode no longer counts: their hosting ends `graceDays` from now at the latest. Returns how many changed.
 */
export async function endTestModeHosting(em: EntityManager, graceDays: number, now: Date): Promise<number> {
  const ends = paymentPolicy.subscriptionHostingEnds(now, graceDays);
  const changed = await em.execute<{ id: string }[]>(
    `update mix set expires_at = ? where ${PUBLISHED_ACTIVE_MIX_SQL} and (expires_at is null or expires_at > ?)
        and (select coalesce(p.provider, s.provider) from entitlement e
               left join payment p on p.id = e.payment_id left join subscription s on s.id = e.subscription_id
              where e.mix_id = mix.id order by e.created_at desc limit 1) = 'test'
      returning id`,
    [ends, ends],
  );
  return changed.length;
}
