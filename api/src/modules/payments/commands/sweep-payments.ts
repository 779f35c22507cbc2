import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../../db/orm.js';
import { Subscription } from '../payment.entity.js';
import { activeSubscriptionSql } from '../payment.policy.js';
import { recordPaidPeriod } from './apply-subscription.js';
import { endTestModeHosting, syncSubscriptionHosting } from './hosting.js';
import { settleRewards } from './settle-rewards.js';

/** The most test-mode periods one sweep renews for one subscription (a server off for years catches up in steps). */
const MAX_RENEWALS = 24;

const nextMonth = (date: Date) => {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
};

/**
 * What time alone changes, run now and then by every process (each step is safe to run at once from several):
 * test-mode subscriptions renew month by month (a paid period each) or, canceled, end at their period's end; members
 * left with no active subscription get their subscription-hosted mixes' end set (a grace period after it ended);
 * paid periods that are over are settled into the rewards ledger. When the test mode is not the provider
 * (`testModeCounts` false) its subscriptions never renew, settle or host: their mixes' hosting ends after the grace period.
 */
export async function sweepPayments(orm: Orm, graceDays: number, testModeCounts: boolean): Promise<{ settled: number }> {
  const now = new Date();
  await orm.em.fork().transactional(async (txEm) => {
    const em = txEm as EntityManager;
    if (!testModeCounts) return;
    const due = await em.find(
      Subscription,
      { provider: 'test', status: { $in: ['active', 'trialing'] }, currentPeriodEnd: { $lte: now } },
      { lockMode: LockMode.PESSIMISTIC_WRITE, lockTableAliases: ['s0'] },
    );
    for (const subscription of due) {
      let end = subscription.currentPeriodEnd as Date;
      for (let step = 0; step < MAX_RENEWALS && end.getTime() <= now.getTime(); step++) {
        if (subscription.cancelAtPeriodEnd) {
          subscription.status = 'canceled';
          subscription.endedAt = end;
          break;
        }
        const start = end;
        end = nextMonth(start);
        subscription.currentPeriodStart = start;
        subscription.currentPeriodEnd = end;
        const [last] = await em.execute<{ amount_cents: number }[]>(
          'select amount_cents from subscription_payment where subscription_id = ? order by period_end desc limit 1',
          [subscription.id],
        );
        await recordPaidPeriod(em, subscription, {
          ref: `${subscription.providerRef}_${start.getTime()}`,
          subscriptionRef: subscription.providerRef,
          userId: subscription.user.id,
          amountCents: last?.amount_cents ?? 0,
          currency: 'usd',
          periodStart: start,
          periodEnd: end,
          paidAt: start,
        });
      }
      subscription.stateAsOf = now;
    }
    await em.flush();
  });
  const lapsed = await orm.em.fork().execute<{ user_id: string }[]>(
    `select distinct s.user_id from subscription s
      where not exists (select 1 from subscription a where a.user_id = s.user_id and ${activeSubscriptionSql('a', testModeCounts)})
        and exists (select 1 from mix m where m.owner_id = s.user_id and m.status = 'published' and m.expires_at is null)`,
  );
  for (const { user_id } of lapsed)
    await orm.em.fork().transactional(async (txEm) => syncSubscriptionHosting(txEm as EntityManager, user_id, graceDays, testModeCounts));
  if (!testModeCounts) await orm.em.fork().transactional(async (txEm) => endTestModeHosting(txEm as EntityManager, graceDays, now));
  return { settled: await settleRewards(orm, now, testModeCounts) };
}
